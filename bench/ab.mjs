#!/usr/bin/env node
// A/B of HTTP servers under replayed real traffic at c=32, alternating fresh processes:
//   node bench/ab.mjs --mode stateless [--tool sync|async|tick] [--ms 3000] [--reps 3] [--driver real|old] A.mjs B.mjs ...
// Each argument is a server file, relative to bench/servers/ or absolute (e.g. another worktree's
// bench/servers/mcpkit-http.mjs, which loads that worktree's dist/). Prints the median server CPU per
// request and req/s of each, their ratios to the first, and the median of the per-rep (paired) ratios.
import path from 'node:path';
import { enablePinning, freePort, serversDir, spawnServer, stop, waitForPort } from './lib/proc.mjs';
import { HttpClient, load } from './lib/http.mjs';
import { ReplayClient, replayLoad } from './lib/replay.mjs';
import { median } from './lib/stats.mjs';
import { abArgs } from './lib/ab-args.mjs';

const { opts, files } = abArgs();
const mode = opts.mode ?? 'stateless';
const ms = Number(opts.ms ?? 3000);
const reps = Number(opts.reps ?? 3);
const old = opts.driver === 'old';
const tool = opts.tool ?? 'sync'; // the tool shape every server registers (bench/servers/_common.mjs)
if (files.length === 0) throw new Error('usage: node bench/ab.mjs --mode M A.mjs [B.mjs ...]');
enablePinning();
const runs = files.map(() => []);
for (let rep = 0; rep < reps; rep++) {
  for (const [i, file] of files.entries()) {
    const port = await freePort();
    const child = spawnServer(path.relative(serversDir, path.resolve(serversDir, file)), ['--port', String(port), '--mode', mode, '--tool', tool], { stdout: 'ignore' });
    await waitForPort(port, child);
    const client = await (old ? new HttpClient(port, mode, { maxSockets: 32 }) : new ReplayClient(port, mode)).open();
    const drive = old ? load : replayLoad;
    await drive(client, child.pid, { concurrency: 32, maxMs: 1000 });
    runs[i].push(await drive(client, child.pid, { concurrency: 32, maxMs: ms }));
    client.destroy();
    await stop(child);
  }
}
const cpu = runs.map((r) => median(r.map((x) => x.cpuUsPerReq)));
const rps = runs.map((r) => median(r.map((x) => x.rps)));
for (const [i, file] of files.entries()) {
  process.stdout.write(
    `${mode} ${tool} ${old ? 'old' : 'real'} ${file}: ${cpu[i].toFixed(1)} µs CPU/req (${(cpu[i] / cpu[0]).toFixed(2)}×), ${Math.round(rps[i])} req/s (${(rps[i] / rps[0]).toFixed(2)}×)` +
      `  [cpu ${runs[i].map((x) => x.cpuUsPerReq.toFixed(1)).join(' ')}]` +
      // Each rep's servers run back to back, so a slow phase of the machine (it swings 2× here) hits both:
      // the median of the per-rep ratios is the figure to read when the medians above disagree with it.
      (i === 0 ? '' : `  paired ${median(runs[i].map((x, rep) => x.cpuUsPerReq / runs[0][rep].cpuUsPerReq)).toFixed(2)}× CPU, ${median(runs[i].map((x, rep) => x.rps / runs[0][rep].rps)).toFixed(2)}× req/s`) +
      '\n',
  );
}
