// What bench/profile.mjs and bench/proxy-profile.mjs print of a V8 .cpuprofile: the top self-time
// frames and files, per unit of work (request, call).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The one .cpuprofile `node --cpu-prof --cpu-prof-dir=<dir>` wrote. */
export function profileIn(dir) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${dir}`);
  return path.join(dir, file);
}

/** Frame name with its file shortened to dist/…, node_modules/…, bench/… or the node: module. */
const frameKey = (f) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules|bench)\//, '$1/').replace(/^node:/, '')}:${f.lineNumber + 1}`;

/**
 * Writes the `top` self-time frames and files of `file` to `out`, in % of the samples and in µs per
 * one of `units` (`unit` names it); the last line gives the µs per unit that were not idle.
 */
export function printProfile(file, { units, unit = 'call', top = 30, out = process.stdout } = {}) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  let idle = 0;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    total += dt;
    const f = byId.get(id).callFrame;
    if (f.functionName === '(idle)') idle += dt;
    const key = frameKey(f);
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const line = (key, us) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / units).toFixed(2).padStart(6)} µs/${unit}  ${key}\n`;
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) out.write(line(key, us));
  const byFile = new Map();
  for (const [key, us] of self) {
    const f = key.split(' ').slice(1).join(' ').replace(/:\d+$/, '');
    byFile.set(f, (byFile.get(f) ?? 0) + us);
  }
  out.write('by file:\n');
  for (const [key, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) out.write(line(key, us));
  out.write(`profile: ${path.relative(process.cwd(), file)} (${(total / 1000).toFixed(0)} ms of samples, ${(((total - idle) / units)).toFixed(1)} µs/${unit} not idle)\n`);
}
