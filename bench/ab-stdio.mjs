#!/usr/bin/env node
// A/B of stdio servers, alternating fresh processes (the stdio section's phases, shorter):
//   node bench/ab-stdio.mjs [--reps 3] A.mjs B.mjs ...
// Each argument is a server file, relative to bench/servers/ or absolute (another worktree's
// bench/servers/mcpkit-stdio.mjs loads that worktree's dist/). Prints the medians of pipelined
// throughput and server CPU per call, and of sequential CPU per call, with ratios to the first.
import path from 'node:path';
import { enablePinning, serversDir, stop } from './lib/proc.mjs';
import { StdioClient } from './lib/stdio.mjs';
import { median } from './lib/stats.mjs';
import { abArgs } from './lib/ab-args.mjs';

const { opts, files } = abArgs();
const reps = Number(opts.reps ?? 3);
if (files.length === 0) throw new Error('usage: node bench/ab-stdio.mjs A.mjs [B.mjs ...]');
enablePinning();
const runs = files.map(() => []);
for (let rep = 0; rep < reps; rep++) {
  for (const [i, file] of files.entries()) {
    const client = new StdioClient(path.relative(serversDir, path.resolve(serversDir, file)));
    try {
      await client.initialize();
      await client.pipelined({ count: 3000, inflight: 64 });
      const thr = await client.pipelined({ count: 20000, inflight: 64 });
      const cpu = await client.pipelined({ maxMs: 2000, inflight: 64 });
      await client.sequential(1000);
      const seq = await client.sequential(3000, 2000);
      runs[i].push({ rate: (thr.calls * 1000) / thr.ms, cpu: cpu.cpuUs / cpu.calls, seq: seq.cpuUsPerCall });
    } finally {
      client.close();
      await stop(client.child);
    }
  }
}
const pick = (key) => runs.map((r) => median(r.map((x) => x[key])));
const [rate, cpu, seq] = [pick('rate'), pick('cpu'), pick('seq')];
for (const [i, file] of files.entries()) {
  process.stdout.write(
    `stdio ${file}: ${(rate[i] / 1000).toFixed(1)} k/s (${(rate[i] / rate[0]).toFixed(2)}×), pipelined ${cpu[i].toFixed(1)} µs CPU/call (${(cpu[i] / cpu[0]).toFixed(2)}×), sequential ${seq[i].toFixed(1)} µs CPU/call (${(seq[i] / seq[0]).toFixed(2)}×)\n`,
  );
}
