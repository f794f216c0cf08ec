#!/usr/bin/env node
// Soak: minutes of mixed traffic on one mcpkit server process, with heap after GC and RSS sampled,
// to show that nothing a long-lived server sees accumulates. `node bench/soak.mjs [--minutes 10]`
// (`--quick`: 60 s, a sample every 10 s — the CI smoke form).
//
// Options: --minutes N | --seconds N, --sample-ms N (default 30000; quick 10000), --concurrency N (8),
//          --idle-ms N (the server's session idle timeout, default 3000: abandoned sessions are reaped
//          during the run), --out FILE (JSON; default bench/results/soak-<timestamp>.json).
//
// The traffic, per worker, picked by weight: legacy sessions opened, used (lists, calls, progress,
// logging, a resource subscription and its update) and ended or abandoned; 2026-07-28 calls from a
// shared client and from fresh ones; cancellations mid-call; tasks created and awaited; SSE streams
// cut mid-call and resumed (test_reconnection); GET streams opened and dropped; errors on purpose
// (unknown tool, tool error, invalid arguments). Errors the traffic asks for are counted as expected;
// any other error fails the run (exit 1).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { abArgs } from './lib/ab-args.mjs';
import { Client, McpError, McpTransportError, StreamableHttpTransport } from '../dist/client.js'; // mcpkit/client

const here = path.dirname(fileURLToPath(import.meta.url));
const { str: option, flag } = abArgs(undefined, { flags: ['quick'], known: ['seconds', 'minutes', 'sample-ms', 'concurrency', 'idle-ms', 'out'] });
const quick = flag('quick');
const durationMs = option('seconds') !== undefined ? Number(option('seconds')) * 1000 : Number(option('minutes', quick ? 1 : 10)) * 60_000;
const sampleMs = Number(option('sample-ms', quick ? 10_000 : 30_000));
const concurrency = Number(option('concurrency', 8));
const idleMs = Number(option('idle-ms', 3_000));
for (const [k, v] of Object.entries({ durationMs, sampleMs, concurrency, idleMs })) {
  if (!Number.isFinite(v) || v <= 0) throw new Error(`soak: ${k} must be a positive number, got ${v}`);
}

// --- the server ---
const child = spawn(process.execPath, ['--expose-gc', path.join(here, 'servers/soak-server.mjs'), '--port', '0', '--idle-ms', String(idleMs)], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
const memWaiters = [];
const url = await new Promise((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`soak server exited (${code}):\n${stderr}`)));
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
    let nl;
    while ((nl = stderr.indexOf('\n')) !== -1) {
      const line = stderr.slice(0, nl);
      stderr = stderr.slice(nl + 1);
      if (line.startsWith('LISTENING ')) resolve(line.slice(10));
      else if (line.startsWith('MEM ')) memWaiters.shift()?.(JSON.parse(line.slice(4)));
    }
  });
});
const probe = () =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no MEM line from the soak server')), 20_000);
    memWaiters.push((m) => {
      clearTimeout(timer);
      resolve(m);
    });
    process.kill(child.pid, 'SIGUSR2');
  });

// --- the traffic ---
const expected = new Map();
const unexpected = [];
const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
const done = new Map();
let latencies = [];
const tasksExt = { 'io.modelcontextprotocol/tasks': {} };
const legacy = () => new Client({ protocolVersion: '2025-11-25', clientInfo: { name: 'soak', version: '1' }, requestTimeoutMs: 30_000 });
const modern = (capabilities) => new Client({ protocolVersion: '2026-07-28', clientInfo: { name: 'soak', version: '1' }, requestTimeoutMs: 30_000, ...(capabilities && { capabilities }) });
const shared = modern({ extensions: tasksExt });
await shared.connect(new StreamableHttpTransport(url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function timedCall(client) {
  const start = performance.now();
  const result = await client.callTool('test_simple_text', {});
  latencies.push(performance.now() - start);
  if (result.content?.[0]?.type !== 'text') throw new Error('test_simple_text: unexpected result');
}

/** Runs `fn`; an error that `isExpected` accepts is counted under `kind`, any other is a failure. */
async function expectError(kind, fn, isExpected) {
  try {
    await fn();
  } catch (error) {
    if (isExpected(error)) return count(expected, kind);
    throw error;
  }
  throw new Error(`${kind}: expected an error, got a result`);
}

const scenarios = {
  async legacySession() {
    const client = legacy();
    await client.connect(new StreamableHttpTransport(url));
    try {
      await client.listTools();
      await timedCall(client);
      await client.callTool('test_tool_with_progress', {}, { onProgress: () => {} });
      await client.setLoggingLevel('info');
      await client.callTool('test_tool_with_logging', {});
      await client.subscribeResource('test://watched-resource');
      await client.callTool('test_trigger_resource_update', {});
      await client.unsubscribeResource('test://watched-resource');
      await client.readResource('test://template/7/data');
      await client.getPrompt('test_prompt_with_arguments', { arg1: 'a', arg2: 'b' });
    } finally {
      await client.close();
    }
  },
  async abandonedSession() {
    // initialize + initialized by hand and never a DELETE: the idle timeout must reap it.
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak-abandoned', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id');
    await init.text();
    if (init.status !== 200 || session === null) throw new Error(`abandoned session: initialize answered ${init.status}`);
    const ack = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    await ack.text();
    // A standalone GET stream, dropped after its first bytes.
    const controller = new AbortController();
    const get = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, signal: controller.signal });
    controller.abort();
    await get.body?.cancel().catch(() => {});
  },
  async modernCalls() {
    await timedCall(shared);
    await shared.listTools();
    await shared.readResource('test://static-text');
    await shared.getPrompt('test_simple_prompt');
  },
  async freshModern() {
    const client = modern();
    await client.connect(new StreamableHttpTransport(url));
    try {
      await timedCall(client);
      await client.callTool('test_tool_with_progress', {}, { onProgress: () => {} });
    } finally {
      await client.close();
    }
  },
  async cancel() {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expectError('cancelled', () => shared.callTool('test_tool_with_progress', {}, { signal: controller.signal }), (e) => e instanceof McpTransportError && e.kind === 'aborted');
  },
  async task() {
    const created = await shared.request('tools/call', { name: 'slow_compute', arguments: { seconds: 0.05, label: 'soak' } });
    if (created.resultType !== 'task') {
      if (created.content === undefined) throw new Error(`task: unexpected answer ${JSON.stringify(created).slice(0, 200)}`);
      return;
    }
    for (let i = 0; i < 100; i++) {
      const task = await shared.request('tasks/get', { taskId: created.taskId });
      if (task.status === 'completed') return;
      if (task.status !== 'working') throw new Error(`task ended ${task.status}`);
      await sleep(20);
    }
    throw new Error('task: not completed after 100 polls');
  },
  async resumedStream() {
    const client = legacy();
    await client.connect(new StreamableHttpTransport(url));
    try {
      const result = await client.callTool('test_reconnection', {});
      if (result.content?.[0]?.text !== 'Reconnection test completed') throw new Error('test_reconnection: the result did not arrive on resumption');
    } finally {
      await client.close();
    }
  },
  async errors() {
    await expectError('unknown tool', () => shared.callTool('no_such_tool', {}), (e) => e instanceof McpError && e.code === -32602);
    // Since 2025-11-25 arguments that fail the input schema are a tool error the model can see (SEP-1303).
    const invalid = await shared.callTool('greet', { name: 7 });
    if (invalid.isError !== true) throw new Error('greet with a number for name: expected an isError result');
    count(expected, 'invalid arguments');
    const failed = await shared.callTool('test_error_handling', {});
    if (failed.isError !== true) throw new Error('test_error_handling: expected isError');
    count(expected, 'tool error');
  },
};
const weights = { legacySession: 3, abandonedSession: 2, modernCalls: 4, freshModern: 2, cancel: 1, task: 1, resumedStream: 1, errors: 1 };
const deck = Object.entries(weights).flatMap(([name, w]) => Array(w).fill(name));

const started = performance.now();
const end = started + durationMs;
async function worker(i) {
  let n = i;
  while (performance.now() < end) {
    const name = deck[n++ % deck.length];
    try {
      await scenarios[name]();
      count(done, name);
    } catch (error) {
      unexpected.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

// --- sampling ---
const samples = [];
const quantile = (values, q) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
async function sample() {
  const window = latencies;
  latencies = [];
  const mem = await probe();
  const s = { atS: (performance.now() - started) / 1000, heapKiB: mem.heapUsed / 1024, rssKiB: mem.rss / 1024, calls: window.length, p50Ms: quantile(window, 0.5), p99Ms: quantile(window, 0.99) };
  samples.push(s);
  console.log(`${s.atS.toFixed(0).padStart(5)} s  heap ${(s.heapKiB / 1024).toFixed(2)} MiB  rss ${(s.rssKiB / 1024).toFixed(1)} MiB  ${String(s.calls).padStart(6)} timed calls  p50 ${s.p50Ms.toFixed(2)} ms  p99 ${s.p99Ms.toFixed(2)} ms`);
}

console.log(`soak: ${durationMs / 1000} s of mixed traffic, ${concurrency} workers, a sample every ${sampleMs / 1000} s, server ${url}`);
await sample();
const sampler = setInterval(() => void sample().catch((e) => unexpected.push(`sample: ${e.message}`)), sampleMs);
await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
clearInterval(sampler);
// Let the idle timeout reap the sessions abandoned last, then a final sample.
await sleep(Math.min(idleMs + 2000, 30_000));
await sample();
await shared.close();
child.kill('SIGTERM');

/** Least-squares slope of y over x, per minute. */
function slopePerMin(points, key) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, p) => a + p.atS, 0) / n;
  const my = points.reduce((a, p) => a + p[key], 0) / n;
  const num = points.reduce((a, p) => a + (p.atS - mx) * (p[key] - my), 0);
  const den = points.reduce((a, p) => a + (p.atS - mx) ** 2, 0);
  return (num / den) * 60;
}
// The slope over the last 80 % of the traffic (the first part is warm-up: JIT, caches, pools);
// the last sample is after the idle timeout and is reported apart.
const traffic = samples.slice(0, -1);
const tail = traffic.filter((s) => s.atS >= (durationMs / 1000) * 0.2);
const summary = {
  durationS: durationMs / 1000,
  concurrency,
  scenarios: Object.fromEntries(done),
  expectedErrors: Object.fromEntries(expected),
  unexpectedErrors: unexpected.length,
  heapSlopeKiBPerMin: slopePerMin(tail, 'heapKiB'),
  rssSlopeKiBPerMin: slopePerMin(tail, 'rssKiB'),
  heapAfterIdleKiB: samples.at(-1).heapKiB,
  firstHeapKiB: samples[0].heapKiB,
  p99Ms: tail.map((s) => s.p99Ms),
  samples,
};
console.log(`\nscenarios run: ${JSON.stringify(summary.scenarios)}`);
console.log(`expected errors: ${JSON.stringify(summary.expectedErrors)}; unexpected: ${unexpected.length}`);
console.log(`heap after GC over the last 80 %: ${summary.heapSlopeKiBPerMin.toFixed(1)} KiB/min (rss ${summary.rssSlopeKiBPerMin.toFixed(1)} KiB/min); after the idle timeout ${(summary.heapAfterIdleKiB / 1024).toFixed(2)} MiB (start ${(summary.firstHeapKiB / 1024).toFixed(2)} MiB)`);
// Grouped by message (numbers stripped), so that a thousand of one kind do not hide another.
const kinds = new Map();
for (const line of unexpected) count(kinds, line.replace(/\d+/g, 'N'));
for (const [line, n] of kinds) console.log(`  unexpected ×${n}: ${line}`);
const out = option('out', path.join(here, 'results', `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`));
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(summary, null, 2));
console.log(`written ${path.relative(process.cwd(), out)}`);
process.exit(unexpected.length === 0 ? 0 : 1);
