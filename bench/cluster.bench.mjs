#!/usr/bin/env node
// The cluster benchmark (issue 11): what running on Redis costs per request. One mcpkit instance
// with memory stores, one on Redis and three on Redis (servers/mcpkit-cluster-http.mjs, which uses
// createRedisState), serving the official SDK v2 client's captured traffic (lib/replay.mjs) in
// legacy session mode (one session, every request carries its Mcp-Session-Id) and in 2026-07-28 mode.
// With three instances every request goes to the next instance (per-request round robin, as a
// balancer without stickiness would), so each instance serves the one session.
//
//   node bench/cluster.bench.mjs [--quick] [--reps N] [--modes session,modern] [--ms N] [--no-pin]
//
// Needs `npm run build` and redis-server on the PATH (or MCPKIT_REDIS_SERVER). Starts a private
// redis-server (127.0.0.1, free port, no persistence) and the instances on 127.0.0.1, and stops
// only those, by PID. Per setup: c=1 (latency p50/p99, one request at a time) then c=32 (req/s,
// server CPU per request: the mcpkit processes together, and redis-server on its own).
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchDir, cpuMicros, enablePinning, freePort, killAllStarted, pinning, spawnServer, stop, waitForPort } from './lib/proc.mjs';
import { ReplayClient } from './lib/replay.mjs';
import { median, percentile } from './lib/stats.mjs';
import { abArgs } from './lib/ab-args.mjs';

const { str: option, flag } = abArgs(undefined, { flags: ['help', 'quick', 'no-pin'], known: ['reps', 'modes', 'ms'] });
if (flag('help')) {
  console.log('node bench/cluster.bench.mjs [--quick] [--reps N] [--modes session,modern] [--ms N] [--no-pin]');
  process.exit(0);
}
const quick = flag('quick');
const reps = Number(option('reps') ?? (quick ? 1 : 3));
const modes = (option('modes') ?? 'session,modern').split(',');
/** Length of the c=32 phase; the c=1 phase is half of it, the warm-up a quarter. */
const loadMs = Number(option('ms') ?? (quick ? 1_000 : 3_000));
/** Bounds each phase in count too, whatever the machine's speed. */
const MAX_REQUESTS = 200_000;
const SETUPS = [
  { id: 'memory-1', label: '1 instance, memory stores', redis: false, instances: 1 },
  { id: 'redis-1', label: '1 instance on Redis', redis: true, instances: 1 },
  { id: 'redis-3', label: '3 instances on Redis', redis: true, instances: 3 },
  // The control for three processes on this machine: 2026-07-28 needs no shared state (a legacy
  // session cannot be served by instances that do not share it, so it has no such row).
  { id: 'memory-3', label: '3 instances, memory stores', redis: false, instances: 3, modes: ['modern'] },
];
const setupsFor = (mode) => SETUPS.filter((setup) => setup.modes === undefined || setup.modes.includes(mode));
const MODE_LABEL = { session: 'legacy + session (2025-11-25)', modern: '2026-07-28' };
for (const mode of modes) if (!(mode in MODE_LABEL)) throw new Error(`--modes: unknown mode ${mode} (session, modern)`);

function findRedisServer() {
  const explicit = process.env.MCPKIT_REDIS_SERVER;
  if (explicit) return explicit;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      accessSync(path.join(dir, 'redis-server'), constants.X_OK);
      return path.join(dir, 'redis-server');
    } catch {
      // not here
    }
  }
  console.error('redis-server is not on the PATH; install it (sudo apt-get install -y redis-server) or set MCPKIT_REDIS_SERVER');
  process.exit(1);
}

/** A private redis-server on the servers' CPU (it is part of the server side), stopped by PID. */
async function startRedis() {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpkit-bench-cluster-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'];
  const binary = findRedisServer();
  const [cmd, cmdArgs] = pinning.enabled ? ['taskset', ['-c', String(pinning.serverCpu), binary, ...args]] : [binary, args];
  const child = spawn(cmd, cmdArgs, { stdio: 'ignore' });
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  child.stderrTail = '';
  await waitForPort(port, child);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    async close() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `instances` servers; answers their PIDs and a replay client per instance sharing one session. */
async function startSetup(setup, mode, redisUrl) {
  const servers = [];
  for (let i = 0; i < setup.instances; i++) {
    const port = await freePort();
    const args = ['--port', String(port), '--instance', `i${i}`, ...(setup.redis ? ['--redis', redisUrl] : [])];
    const child = spawnServer('mcpkit-cluster-http.mjs', args, { stdout: 'ignore' });
    servers.push({ port, child });
  }
  for (const { port, child } of servers) await waitForPort(port, child);
  const clients = servers.map(({ port }) => new ReplayClient(port, mode));
  // The handshake once, on the first instance; the others serve the session it opened.
  await clients[0].open();
  for (const client of clients.slice(1)) {
    client.sessionId = clients[0].sessionId;
    client.version = clients[0].version;
  }
  for (const client of clients) await client.check();
  return { servers, clients };
}

/**
 * `concurrency` workers, one request in flight each; worker w sends its j-th request to instance
 * (w + j) mod n over its own keep-alive connection to that instance. Bounded by `maxMs` and MAX_REQUESTS.
 */
async function drive({ servers, clients }, redisPid, { concurrency, maxMs }) {
  const n = clients.length;
  const conns = clients.map((client) => client.connections(concurrency));
  const pids = servers.map(({ child }) => child.pid);
  const latencies = [];
  let issued = 0;
  const cpu0 = pids.map(cpuMicros);
  const redis0 = redisPid === undefined ? 0 : cpuMicros(redisPid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let j = 0; issued < MAX_REQUESTS && performance.now() - t0 < maxMs; j++) {
        const i = issued++;
        const k = (w + j) % n;
        const start = performance.now();
        await clients[k].echo(`h${i}`, conns[k][w]);
        latencies.push((performance.now() - start) * 1000);
      }
    }),
  );
  const ms = performance.now() - t0;
  const answered = latencies.length;
  const cpu = pids.reduce((sum, pid, i) => sum + cpuMicros(pid) - cpu0[i], 0);
  return {
    requests: answered,
    rps: (answered * 1000) / ms,
    cpuUsPerReq: cpu / answered,
    redisCpuUsPerReq: redisPid === undefined ? 0 : (cpuMicros(redisPid) - redis0) / answered,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function measure(setup, mode, redis) {
  const started = await startSetup(setup, mode, redis.url);
  try {
    const redisPid = setup.redis ? redis.pid : undefined;
    await drive(started, redisPid, { concurrency: 32, maxMs: loadMs / 4 });
    const sequential = await drive(started, redisPid, { concurrency: 1, maxMs: loadMs / 2 });
    const loaded = await drive(started, redisPid, { concurrency: 32, maxMs: loadMs });
    return { rps: loaded.rps, cpuUsPerReq: loaded.cpuUsPerReq, redisCpuUsPerReq: loaded.redisCpuUsPerReq, p50: sequential.p50, p99: sequential.p99, seqCpuUsPerReq: sequential.cpuUsPerReq, requests: loaded.requests + sequential.requests };
  } finally {
    for (const client of started.clients) client.destroy();
    await Promise.all(started.servers.map(({ child }) => stop(child)));
  }
}

const fmt = (x, digits = 0) => (x === null || x === undefined ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const signed = (x, digits = 0) => `${x >= 0 ? '+' : '−'}${fmt(Math.abs(x), digits)}`;

if (!flag('no-pin')) enablePinning();
const redis = await startRedis();
const cleanup = () => {
  killAllStarted();
  try {
    process.kill(redis.pid, 'SIGKILL');
  } catch {
    // gone
  }
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});
process.on('exit', cleanup);

const runs = {};
try {
  for (let rep = 0; rep < reps; rep++) {
    // Interleaved, so a noisy minute hits every setup alike.
    for (const mode of modes) {
      for (const setup of setupsFor(mode)) {
        const key = `${mode}/${setup.id}`;
        (runs[key] ??= []).push(await measure(setup, mode, redis));
        process.stderr.write(`rep ${rep + 1}/${reps} ${key} done\n`);
      }
    }
  }
} finally {
  await redis.close();
}

const summary = {};
for (const [key, list] of Object.entries(runs)) {
  summary[key] = Object.fromEntries(Object.keys(list[0]).map((field) => [field, median(list.map((run) => run[field]))]));
}

const lines = [];
lines.push(`Cluster benchmark · ${new Date().toISOString()} · Node ${process.version} · ${quick ? 'quick' : 'full'} · median of ${reps} · ${pinning.enabled ? `harness on CPU ${pinning.harnessCpu}, servers and redis-server on CPU ${pinning.serverCpu}` : 'unpinned'}`);
lines.push('');
lines.push('| mode | setup | req/s (c=32) | mcpkit CPU µs/req | redis-server CPU µs/req | p50 µs (c=1) | p99 µs (c=1) |');
lines.push('| --- | --- | --- | --- | --- | --- | --- |');
for (const mode of modes) {
  for (const setup of setupsFor(mode)) {
    const r = summary[`${mode}/${setup.id}`];
    lines.push(`| ${MODE_LABEL[mode]} | ${setup.label} | ${fmt(r.rps)} | ${fmt(r.cpuUsPerReq, 1)} | ${setup.redis ? fmt(r.redisCpuUsPerReq, 1) : '–'} | ${fmt(r.p50)} | ${fmt(r.p99)} |`);
  }
}
lines.push('');
lines.push('What Redis adds per request, against the same number of instances with memory stores where they can serve the');
lines.push('traffic, else against one (same run):');
lines.push('');
lines.push('| mode | setup | against | mcpkit CPU | redis-server CPU | latency p50 | latency p99 | req/s |');
lines.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const mode of modes) {
  for (const setup of setupsFor(mode).filter((s) => s.redis)) {
    const control = setupsFor(mode).find((s) => !s.redis && s.instances === setup.instances) ?? SETUPS[0];
    const base = summary[`${mode}/${control.id}`];
    const r = summary[`${mode}/${setup.id}`];
    lines.push(`| ${MODE_LABEL[mode]} | ${setup.label} | ${control.label} | ${signed(r.cpuUsPerReq - base.cpuUsPerReq, 1)} µs | ${signed(r.redisCpuUsPerReq, 1)} µs | ${signed(r.p50 - base.p50)} µs | ${signed(r.p99 - base.p99)} µs | ${fmt(r.rps / base.rps, 2)}× |`);
  }
}
const text = lines.join('\n');
console.log(text);
const results = path.join(benchDir, 'results');
mkdirSync(results, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
writeFileSync(path.join(results, `cluster-${stamp}.json`), JSON.stringify({ quick, reps, modes, loadMs, pinning, runs, summary }, null, 2));
writeFileSync(path.join(results, `cluster-${stamp}.md`), `${text}\n`);
