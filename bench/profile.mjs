#!/usr/bin/env node
// CPU profile of one bench HTTP server under replayed real traffic at c=32:
//   node bench/profile.mjs [--lib mcpkit] [--mode stateless|session|modern] [--tool sync|async|tick] [--ms 4000] [--top 25]
// Writes the .cpuprofile (open it in Chrome DevTools or speedscope for a flame graph) and prints
// the top self-time frames.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { benchDir, enablePinning, freePort, spawnServer, stop, waitForPort } from './lib/proc.mjs';
import { ReplayClient, replayLoad } from './lib/replay.mjs';
import { printProfile, profileIn } from './lib/cpuprofile.mjs';

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

// Per request over the profile's whole life (start-up and warm-up included, so a slight overestimate).
printProfile(profileIn(dir), { units: warm.requests + r.requests + 2, unit: 'req', top });
