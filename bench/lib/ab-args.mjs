// The A/B scripts' command line: `--name value` options, and the server files to compare.
export function abArgs(argv = process.argv.slice(2)) {
  const opts = {};
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) opts[argv[i].slice(2)] = argv[++i];
    else files.push(argv[i]);
  }
  return { opts, files };
}
