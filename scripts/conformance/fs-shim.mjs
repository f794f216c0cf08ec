// `node:fs` plus a minimal globSync for Node < 22. The conformance CLI only
// calls it as globSync('**/checks.json', { cwd }) (tier-check); server runs never
// do. Supports '**' (any number of directories), '*' and '?' within a segment.
import fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';
export default fs;

function segmentToRegExp(segment) {
  const escaped = segment.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replaceAll('*', '[^/]*').replaceAll('?', '[^/]')}$`);
}

export function globSync(pattern, options = {}) {
  if (typeof fs.globSync === 'function') return fs.globSync(pattern, options);
  const cwd = options.cwd ? String(options.cwd) : process.cwd();
  const segments = String(pattern).split('/').filter((s) => s !== '' && s !== '.');
  const found = new Set();
  // rel: path relative to cwd ('' = cwd itself); i: index of the next segment to match.
  const walk = (rel, i) => {
    if (i === segments.length) return void found.add(rel);
    let entries;
    try {
      entries = fs.readdirSync(path.join(cwd, rel), { withFileTypes: true });
    } catch {
      return; // not a directory, or unreadable
    }
    const join = (name) => (rel === '' ? name : `${rel}/${name}`);
    if (segments[i] === '**') {
      walk(rel, i + 1); // '**' matching zero directories
      for (const e of entries) if (e.isDirectory() && !e.isSymbolicLink()) walk(join(e.name), i);
      return;
    }
    const re = segmentToRegExp(segments[i]);
    for (const e of entries) if (re.test(e.name)) walk(join(e.name), i + 1);
  };
  walk('', 0);
  return [...found].sort();
}
