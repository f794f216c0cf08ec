// The check of scripts/check-imports.mjs (see there) as a function, so its test runs it on many
// small trees in one process (each spawn loaded TypeScript again); the CLI is a thin wrapper.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Checks one tree; `argv` as the CLI takes it. Answers the CLI's exit status and what it prints
 * (to stderr when the status is 1). The default root is the repository's.
 * @param {string[]} argv
 * @returns {{ status: 0 | 1, out: string }}
 */
export function checkImports(argv) {
  const args = parseArgs(argv);
  const root = path.resolve(args.root ?? path.join(import.meta.dirname, '..', '..'));
  const rel = (p) => path.relative(root, p).split(path.sep).join('/');
  const srcDir = path.join(root, args.src ?? 'src');
  const layersFile = path.join(root, args.layers ?? 'scripts/layers.json');
  const allowFile = path.join(root, args.allow ?? 'scripts/import-cycles.allow');
  const docFile = args.doc === undefined ? path.join(root, 'docs/architecture.md') : args.doc === '' ? undefined : path.join(root, args.doc);

  const problems = [];
  const layers = JSON.parse(fs.readFileSync(layersFile, 'utf8')).layers;
  const files = listSources(srcDir);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  checkLayers();
  checkCliThroughEntries();
  checkCycles();
  if (docFile !== undefined) checkDoc();

  if (problems.length > 0) return { status: 1, out: `check-imports: ${problems.length} problem(s)\n\n${problems.join('\n\n')}` };
  return { status: 0, out: `check-imports: ${files.length} files, no new cycle, no upward import` };

  function parseArgs(list) {
    const out = {};
    for (let i = 0; i < list.length; i += 2) out[list[i].replace(/^--/, '')] = list[i + 1] ?? '';
    return out;
  }

  function listSources(dir) {
    const out = [];
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) out.push(...listSources(full));
      else if (/\.(m|c)?tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
    return out.sort();
  }

  // Every relative module a file names: import, import type, export … from, import(), require().
  function importsOf(file) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(path.resolve(path.dirname(file), fileName));
      if (target === undefined) problems.push(`unresolved import: ${rel(file)} imports '${fileName}', which names no file under ${rel(srcDir)}/`);
      else targets.add(target);
    }
    return [...targets].sort();
  }

  function resolve(base) {
    const stem = base.replace(/\.(m|c)?jsx?$/, '');
    const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, path.join(base, 'index.ts')];
    return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  }

  function layerOf(file) {
    const r = rel(file);
    let best;
    layers.forEach((layer, index) => {
      for (const p of layer.paths) {
        const hit = r === p || r.startsWith(`${p}/`);
        if (hit && (best === undefined || p.length > best.path.length)) best = { index, path: p, name: layer.name };
      }
    });
    return best;
  }

  function checkLayers() {
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      if (from === undefined) {
        problems.push(`no layer: ${rel(file)} is under no path of ${rel(layersFile)}; add its folder to the layer it belongs to`);
        continue;
      }
      for (const target of targets) {
        const to = layerOf(target);
        if (to === undefined || to.index >= from.index) continue;
        const below = layers.slice(from.index + 1).map((l) => l.name).join(', ') || 'none';
        problems.push(
          `upward import: ${rel(file)} (layer ${from.name}) imports ${rel(target)} (layer ${to.name}, above it).\n` +
            `  ${from.name} may import its own layer and: ${below}. Move what both need down, or pass it in from above.`,
        );
      }
    }
  }

  // The build bundles the entries (scripts/bundle.mjs) and leaves dist/cli as it is: a CLI file that imported a
  // library file directly would load a second copy of it beside the bundle's.
  function checkCliThroughEntries() {
    const cli = layers.find((layer) => layer.name === 'cli');
    const entries = layers.find((layer) => layer.name === 'entries');
    if (cli === undefined || entries === undefined) return;
    for (const [file, targets] of graph) {
      if (layerOf(file)?.name !== 'cli') continue;
      for (const target of targets) {
        const to = layerOf(target)?.name;
        if (to === 'cli' || to === 'entries') continue;
        problems.push(
          `cli past the entries: ${rel(file)} imports ${rel(target)}.\n` +
            `  The CLI reaches the library only through ${entries.paths.join(', ')} (the bundled files); import it from one of them.`,
        );
      }
    }
  }

  // Tarjan's strongly connected components; a component of two or more files is a cycle.
  function cycles() {
    let counter = 0;
    const index = new Map(), low = new Map(), stack = [], onStack = new Set(), out = [];
    const visit = (v) => {
      index.set(v, counter); low.set(v, counter); counter += 1;
      stack.push(v); onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
      }
      if (low.get(v) !== index.get(v)) return;
      const component = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
      const selfLoop = component.length === 1 && (graph.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) out.push(component.map(rel).sort());
    };
    for (const f of graph.keys()) if (!index.has(f)) visit(f);
    return out;
  }

  // One concrete loop through a component, shortest first found, to show where to cut.
  function loopIn(component) {
    const members = new Set(component.map((r) => path.join(root, r)));
    const start = path.join(root, component[0]);
    const prev = new Map([[start, undefined]]);
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift();
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const loop = [start];
          for (let x = v; x !== start; x = prev.get(x)) loop.splice(1, 0, x);
          return [...loop, start].map(rel).join(' -> ');
        }
        if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
      }
    }
    return component.join(' -> ');
  }

  function readAllowList() {
    if (!fs.existsSync(allowFile)) return [];
    const blocks = [];
    let current = [];
    for (const raw of fs.readFileSync(allowFile, 'utf8').split('\n')) {
      const line = raw.replace(/#.*/, '').trim();
      if (line === '') {
        if (current.length > 0) blocks.push(current.sort());
        current = [];
      } else current.push(line);
    }
    if (current.length > 0) blocks.push(current.sort());
    return blocks;
  }

  function checkCycles() {
    const key = (files) => files.join('\n');
    const allowed = new Map(readAllowList().map((b) => [key(b), b]));
    for (const component of cycles()) {
      if (allowed.delete(key(component))) continue;
      problems.push(
        `import cycle (${component.length} files, type-only imports count): ${loopIn(component)}\n` +
          `  all files of the cycle: ${component.join(', ')}\n` +
          `  Cut one arrow: move the shared type or value into a module both can import, or pass it in.`,
      );
    }
    for (const stale of allowed.values()) {
      problems.push(
        `allow-listed cycle no longer exists exactly: ${stale.join(', ')}\n` +
          `  Remove it from ${rel(allowFile)} (or replace it with the smaller cycle the check now reports): the list only shrinks.`,
      );
    }
  }

  // The doc shows the order from layers.json between two markers, so the two cannot drift.
  function checkDoc() {
    const begin = '<!-- layers:begin (generated from scripts/layers.json) -->';
    const end = '<!-- layers:end -->';
    const doc = fs.readFileSync(docFile, 'utf8');
    const body = layers.map((l, i) => `${i + 1}. **${l.name}**: ${l.paths.map((p) => `\`${p}\``).join(', ')} (${l.about})`).join('\n');
    const expected = `${begin}\n${body}\n${end}`;
    const start = doc.indexOf(begin);
    const stop = doc.indexOf(end);
    if (start !== -1 && stop > start && doc.slice(start, stop + end.length) === expected) return;
    if (process.env.CHECK_IMPORTS_WRITE_DOC === '1' && start !== -1 && stop > start) {
      fs.writeFileSync(docFile, doc.slice(0, start) + expected + doc.slice(stop + end.length));
      return;
    }
    problems.push(
      `${rel(docFile)} does not show the layer order of ${rel(layersFile)}.\n` +
        `  Between the layers markers it should read:\n${expected}\n` +
        `  (CHECK_IMPORTS_WRITE_DOC=1 node scripts/check-imports.mjs rewrites it.)`,
    );
  }
}
