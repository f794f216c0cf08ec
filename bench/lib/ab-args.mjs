// Every bench script's command line: `--name value` options, `--flag` switches named in `flags`, and
// positional arguments (the server files or dist/ folder to compare). With `known`, an option that is
// neither known nor a flag is refused with the nearest known name, so a misspelt `--rep 5` does not
// silently run the default.
export function abArgs(argv = process.argv.slice(2), { flags = [], known } = {}) {
  const opts = {};
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      files.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (known !== undefined && !known.includes(name) && !flags.includes(name)) {
      const names = [...known, ...flags];
      const near = names.map((n) => [n, distance(n, name)]).sort((a, b) => a[1] - b[1])[0];
      throw new Error(`unknown option --${name}${near && near[1] <= 3 ? ` (did you mean --${near[0]}?)` : ''}; options: ${names.map((n) => `--${n}`).join(', ')}`);
    }
    if (eq !== -1) opts[name] = arg.slice(eq + 1);
    else if (flags.includes(name)) opts[name] = true;
    else if (i + 1 < argv.length) opts[name] = argv[++i];
    else throw new Error(`option --${name} needs a value`);
  }
  const num = (name, fallback) => {
    if (opts[name] === undefined) return fallback;
    const n = Number(opts[name]);
    if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got ${JSON.stringify(opts[name])}`);
    return n;
  };
  const str = (name, fallback) => (opts[name] === undefined ? fallback : String(opts[name]));
  const flag = (name) => opts[name] === true;
  return { opts, files, num, str, flag };
}

function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}
