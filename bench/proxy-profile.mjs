#!/usr/bin/env node
// CPU profile of `mcpkit proxy` at c=32 (or --concurrency C; 1 profiles the added latency of a lone
// call) in front of mcpkit's demo, over an HTTP or a stdio upstream:
//   node bench/proxy-profile.mjs [--upstream http|stdio] [--calls 8000] [--concurrency 32] [--top 30] [--no-pin] [WORKTREE]
// The gateway runs with --cpu-prof (WORKTREE's bin/mcpkit.js, default this one); the top self-time
// frames and files are printed, and the .cpuprofile is kept for a flame graph. The gateway is pinned
// to CPU 1 and the harness and upstream to CPU 0: V8 samples by wall clock, so a gateway that shares
// its core is charged for the time it was preempted (mostly inside writev).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHttpTransport } from '../dist/client.js';
import { abArgs } from './lib/ab-args.mjs';
import { printProfile, profileIn } from './lib/cpuprofile.mjs';
import { BIN, callsAt, childOf, startMcpkit } from './lib/mcpkit-cli.mjs';

const { files, num, str, flag } = abArgs(process.argv.slice(2), { known: ['upstream', 'calls', 'concurrency', 'top'], flags: ['no-pin'] });
const kind = str('upstream', 'http');
if (kind !== 'http' && kind !== 'stdio') throw new Error(`--upstream takes http or stdio, got ${JSON.stringify(kind)}`);
const CALLS = num('calls', 8000);
const TOP = num('top', 30);
const CONCURRENCY = num('concurrency', 32);
const GATEWAY = files.length === 0 ? BIN : path.join(path.resolve(files[0]), 'bin/mcpkit.js');
const pin = !flag('no-pin') && os.availableParallelism() >= 2;
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'profiles', `proxy-${kind}-${Date.now()}`);
mkdirSync(dir, { recursive: true });
const children = [];
process.removeAllListeners('warning');
const taskset = (cpu, pid) => execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });

try {
  if (pin) taskset(0, process.pid);
  const direct = kind === 'http' ? await startMcpkit(['demo', '--port', '0'], pin ? { cpu: 0 } : {}) : undefined;
  if (direct) children.push(direct.child);
  const upstream = direct !== undefined ? [direct.url] : ['--', process.execPath, BIN, 'demo', '--stdio'];
  const gateway = await startMcpkit(['proxy', '--port', '0', ...upstream], { bin: GATEWAY, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`], ...(pin ? { cpu: 1 } : {}) });
  children.push(gateway.child);
  const c = new Client({ protocolVersion: '2025-11-25' });
  await c.connect(new StreamableHttpTransport(gateway.url));
  await c.callTool('test_simple_text'); // the stdio upstream starts with the first link
  const spawned = kind === 'stdio' ? childOf(gateway.child.pid) : undefined;
  if (pin && spawned !== undefined) taskset(0, spawned);
  await callsAt(c, 1000, CONCURRENCY);
  await callsAt(c, CALLS, CONCURRENCY);
  await c.close();
  const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
  gateway.child.kill('SIGINT');
  await exited;
  printProfile(profileIn(dir), { units: CALLS + 1001, unit: 'call', top: TOP });
  if (!pin) process.stdout.write('(not pinned: the figures include time the gateway was preempted)\n');
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}
