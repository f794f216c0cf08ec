#!/usr/bin/env node
// CPU profile of one bench HTTP server under replayed real traffic at c=32:
//   node bench/profile.mjs [--lib mcpkit] [--mode stateless|session|modern] [--tool sync|async|tick] [--ms 4000] [--top 25]
// Writes the .cpuprofile (open it in Chrome DevTools or speedscope for a flame graph) and prints
// the top self-time frames.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { benchDir, enablePinning, freePort, spawnServer, stop, waitForPort } from './lib/proc.mjs';
import { ReplayClient, replayLoad } from './lib/replay.mjs';

import { abArgs } from './lib/ab-args.mjs';
const { str: opt } = abArgs(undefined, { known: ['lib', 'mode', 'tool', 'ms', 'top'] });
const lib = opt('lib', 'mcpkit');
const mode = opt('mode', 'stateless');
const tool = opt('tool', 'sync');
const ms = Number(opt('ms', '4000'));
const top = Number(opt('top', '25'));
const dir = path.join(benchDir, 'results', 'profiles', `${lib}-${mode}-${tool}-${Date.now()}`);
mkdirSync(dir, { recursive: true });

enablePinning();
const port = await freePort();
const child = spawnServer(`${lib}-http.mjs`, ['--port', String(port), '--mode', mode, '--tool', tool], {
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', `data:text/javascript,process.on('SIGTERM',()=>process.exit(0))`],
  stdout: 'ignore',
});
await waitForPort(port, child);
const client = await new ReplayClient(port, mode).open();
const warm = await replayLoad(client, child.pid, { concurrency: 32, maxMs: 1000 });
const r = await replayLoad(client, child.pid, { concurrency: 32, maxMs: ms });
client.destroy();
await stop(child);
process.stdout.write(`${lib} ${mode} ${tool} c=32: ${Math.round(r.rps)} req/s, ${r.cpuUsPerReq.toFixed(1)} µs server CPU/req\n`);

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${dir}`);
const prof = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
let total = 0;
prof.samples.forEach((id, i) => {
  const dt = prof.timeDeltas[i] ?? 0;
  total += dt;
  const f = byId.get(id).callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules|bench)\//, '$1/').replace(/^node:/, '')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
});
// Per request over the profile's whole life (start-up and warm-up included, so a slight overestimate).
const requests = warm.requests + r.requests + 2;
const line = (key, us) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / requests).toFixed(2).padStart(6)} µs/req  ${key}\n`;
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(line(key, us));
const byFile = new Map();
for (const [key, us] of self) {
  const file = key.split(' ').slice(1).join(' ').replace(/:\d+$/, '');
  byFile.set(file, (byFile.get(file) ?? 0) + us);
}
process.stdout.write('by file:\n');
for (const [key, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(line(key, us));
process.stdout.write(`profile: ${path.relative(process.cwd(), path.join(dir, file))}\n`);
