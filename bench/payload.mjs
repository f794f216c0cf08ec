#!/usr/bin/env node
// Big payloads (issue 29, point 5): a `--mb` MiB resources/read and tools/call result over stdio and HTTP
// (legacy stateless), mcpkit against a bare server sending the same bytes, fresh processes alternating:
//   node bench/payload.mjs [--mb 10] [--calls 8] [--reps 3] [--transports stdio,http]
// Prints per cell the median throughput (response MiB/s, one request at a time), server CPU per request,
// and peak RSS (VmHWM) above the idle process's as a multiple of the payload, each with mcpkit's ratio to the reference.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { abArgs } from './lib/ab-args.mjs';
import { cpuMicros, enablePinning, freePort, spawnServer, stop, waitForPort } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';

const { opts } = abArgs();
const mb = Number(opts.mb ?? 10);
const calls = Number(opts.calls ?? 8);
const reps = Number(opts.reps ?? 3);
const transports = (opts.transports ?? 'stdio,http').split(',');
const payloadBytes = mb * 1024 * 1024;
const VERSION = '2025-11-25';
const requests = {
  'resources/read': (id) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 'big://data' } }),
  'tools/call': (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'big', arguments: {} } }),
};

const statusKiB = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** The text of a response, checked to be the whole payload. */
function payloadOf(method, bytes) {
  const msg = JSON.parse(bytes);
  const text = method === 'tools/call' ? msg.result?.content?.[0]?.text : msg.result?.contents?.[0]?.text;
  if (typeof text !== 'string' || text.length !== payloadBytes) throw new Error(`${method}: expected ${payloadBytes} characters of text, got ${JSON.stringify(msg).slice(0, 300)}`);
}

/** One stdio server: newline-delimited JSON, one request at a time. */
async function stdioSession(lib) {
  const child = spawnServer('payload-server.mjs', ['--lib', lib, '--transport', 'stdio', '--mb', String(mb)]);
  let chunks = [];
  let waiting;
  child.stdout.on('data', (chunk) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      chunks.push(chunk.subarray(start, nl));
      const line = Buffer.concat(chunks);
      chunks = [];
      start = nl + 1;
      waiting?.(line);
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  const send = (msg) =>
    new Promise((resolve) => {
      waiting = resolve;
      child.stdin.write(JSON.stringify(msg) + '\n');
    });
  await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'payload', version: '1' } } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return { child, send: (msg) => send(msg), close: () => stop(child) };
}

async function httpSession(lib) {
  const port = await freePort();
  const child = spawnServer('payload-server.mjs', ['--lib', lib, '--transport', 'http', '--mb', String(mb), '--port', String(port)], { stdout: 'ignore' });
  await waitForPort(port, child);
  const send = async (msg) => {
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION },
      body: JSON.stringify(msg),
    });
    return Buffer.from(await res.arrayBuffer());
  };
  return { child, send, close: () => stop(child) };
}

async function measure(transport, lib, method) {
  const session = await (transport === 'stdio' ? stdioSession(lib) : httpSession(lib));
  // What the payload costs: peak RSS above the idle process's (the runtime itself is ~50 MB).
  const idle = statusKiB(session.child.pid, 'VmRSS');
  payloadOf(method, await session.send(requests[method](1))); // warm-up, and the answer is the payload
  const cpu0 = cpuMicros(session.child.pid);
  const t0 = performance.now();
  let received = 0;
  const answers = [];
  for (let i = 0; i < calls; i++) {
    const bytes = await session.send(requests[method](i + 2));
    received += bytes.length;
    answers.push(bytes);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuUs = (cpuMicros(session.child.pid) - cpu0) / calls;
  const rss = statusKiB(session.child.pid, 'VmHWM') - idle;
  await session.close();
  for (const bytes of answers) payloadOf(method, bytes);
  return { mibps: received / 1024 / 1024 / seconds, cpuMs: cpuUs / 1000, rssX: rss / payloadBytes };
}

enablePinning();
process.stdout.write(`payload ${mb} MiB, ${calls} requests one at a time, median of ${reps} fresh processes\n`);
for (const transport of transports) {
  for (const method of Object.keys(requests)) {
    const runs = { reference: [], mcpkit: [] };
    for (let rep = 0; rep < reps; rep++) for (const lib of ['reference', 'mcpkit']) runs[lib].push(await measure(transport, lib, method));
    const med = (lib, key) => median(runs[lib].map((r) => r[key]));
    const line = (lib) => {
      const [t, c, r] = ['mibps', 'cpuMs', 'rssX'].map((k) => med(lib, k));
      const ratio = (k) => (lib === 'mcpkit' ? ` (${(med('mcpkit', k) / med('reference', k)).toFixed(2)}×)` : '');
      return `${lib.padEnd(9)} ${t.toFixed(0).padStart(5)} MiB/s${ratio('mibps')}, server CPU ${c.toFixed(1)} ms/request${ratio('cpuMs')}, peak RSS growth ${r.toFixed(2)}× the payload${ratio('rssX')}`;
    };
    process.stdout.write(`${transport} ${method}\n  ${line('reference')}\n  ${line('mcpkit')}\n`);
  }
}
