#!/usr/bin/env node
// Bytes promoted to the old generation per request (from --trace-gc-nvp) under replayed traffic at c=32:
//   node bench/gc-trace.mjs [--lib mcpkit] [--mode stateless|session|modern] [--tool sync|async|tick] [--ms 3000]
import { enablePinning, freePort, spawnServer, stop, waitForPort } from './lib/proc.mjs';
import { ReplayClient, replayLoad } from './lib/replay.mjs';
import { abArgs } from './lib/ab-args.mjs';

const { str: opt } = abArgs(undefined, { known: ['lib', 'mode', 'tool', 'ms'] });
const lib = opt('lib', 'mcpkit');
const mode = opt('mode', 'stateless');
const tool = opt('tool', 'sync');
const ms = Number(opt('ms', '3000'));
enablePinning();
const port = await freePort();
const child = spawnServer(`${lib}-http.mjs`, ['--port', String(port), '--mode', mode, '--tool', tool], {
  nodeArgs: ['--trace-gc-nvp', '--import', `data:text/javascript,process.on('SIGTERM',()=>process.exit(0))`],
});
let out = '';
child.stdout.on('data', (c) => (out += c));
await waitForPort(port, child);
const client = await new ReplayClient(port, mode).open();
await replayLoad(client, child.pid, { concurrency: 32, maxMs: 1000 });
const mark = out.length;
const r = await replayLoad(client, child.pid, { concurrency: 32, maxMs: ms });
const measured = out.slice(mark);
client.destroy();
await stop(child);
const sum = (key) => [...measured.matchAll(new RegExp(`\\b${key}=([\\d.]+)`, 'g'))].reduce((s, m) => s + Number(m[1]), 0);
const count = (kind) => [...measured.matchAll(new RegExp(`gc=${kind}\\b`, 'g'))].length;
const n = r.requests;
process.stdout.write(
  `${lib} ${mode} ${tool}: ${Math.round(r.rps)} req/s, ${r.cpuUsPerReq.toFixed(1)} µs CPU/req; promoted ${(sum('promoted') / n).toFixed(0)} B/req, ` +
    `allocated ${(sum('allocated') / n).toFixed(0)} B/req, survived ${(sum('new_space_survived') / Math.max(1, count('s'))).toFixed(0)} B/scavenge, ` +
    `scavenges ${count('s')}, mark-compacts ${count('mc') + count('mmc')}, pause ${((1000 * sum('pause')) / n).toFixed(2)} µs/req\n`,
);
