#!/usr/bin/env node
// The fetch handler on Bun and on Deno, next to each runtime's bare server answering the same JSON-RPC
// echo, in one run: 2026-07-28 tools/call at c=32 from a Node client, server CPU per request read from
// /proc as for the Node figures (bench/ab.mjs), alternating fresh processes.
//   node bench/runtimes.mjs [--ms 3000] [--reps 3]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { enablePinning, freePort, pinning, rootDir, serversDir, stop, waitForPort } from './lib/proc.mjs';
import { HttpClient, load } from './lib/http.mjs';
import { median } from './lib/stats.mjs';
import { abArgs } from './lib/ab-args.mjs';

const { opts } = abArgs();
const ms = Number(opts.ms ?? 3000);
const reps = Number(opts.reps ?? 3);
const bin = (name) => path.join(rootDir, 'node_modules', '.bin', name);
const runtimes = {
  bun: (port, lib) => [bin('bun'), ['runtime-serve.mjs', '--port', String(port), '--lib', lib]],
  deno: (port, lib) => [bin('deno'), ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--node-modules-dir=manual', 'runtime-serve.mjs', '--port', String(port), '--lib', lib]],
};
enablePinning();
const rows = [];
for (const [runtime, command] of Object.entries(runtimes)) {
  const runs = { bare: [], mcpkit: [] };
  for (let rep = 0; rep < reps; rep++) {
    for (const lib of ['bare', 'mcpkit']) {
      const port = await freePort();
      const [cmd, args] = command(port, lib);
      const [exe, argv] = pinning.enabled ? ['taskset', ['-c', String(pinning.serverCpu), cmd, ...args]] : [cmd, args];
      const child = spawn(exe, argv, { cwd: serversDir, stdio: ['ignore', 'ignore', 'inherit'] });
      await waitForPort(port, child);
      const client = await new HttpClient(port, 'modern', { maxSockets: 32 }).open();
      await load(client, child.pid, { concurrency: 32, maxMs: 1000 });
      runs[lib].push(await load(client, child.pid, { concurrency: 32, maxMs: ms }));
      await stop(child);
    }
  }
  for (const lib of ['bare', 'mcpkit']) {
    const cpu = median(runs[lib].map((r) => r.cpuUsPerReq));
    const rps = median(runs[lib].map((r) => r.rps));
    rows.push({ runtime, lib, cpu, rps, all: runs[lib].map((r) => r.cpuUsPerReq.toFixed(1)) });
  }
}
for (const row of rows) {
  const floor = rows.find((r) => r.runtime === row.runtime && r.lib === 'bare');
  console.log(`${row.runtime} ${row.lib.padEnd(6)} ${row.cpu.toFixed(1)} µs CPU/req (${(row.cpu / floor.cpu).toFixed(2)}× bare), ${Math.round(row.rps)} req/s  [cpu ${row.all.join(' ')}]`);
}
