#!/usr/bin/env node
// Garbage per proxied call: the gateway (or the client, or the direct server) under --trace-gc-nvp while
// mcpkit's client calls a tool through it at a concurrency; bytes allocated and promoted to the old
// generation per call, collections, and GC pause per call, summed over the measured calls.
//
//   node bench/proxy-gc.mjs [--only direct,http,stdio,client-http,client-stdio] [--calls 20000]
//                           [--concurrency 32] [--rounds 1] [WORKTREE ...]
//
// http / stdio: `mcpkit proxy` in front of the demo over HTTP / over stdio, the gateway traced. direct: the
// demo itself, traced. client-http / client-stdio: the client's own process traced, calling the demo
// straight. With worktree roots (A/B), each one's bin/mcpkit.js and dist/ are measured in turn, alternating.
// Needs dist/ (npm run build). Promotion that is far above what a call keeps alive means something dead in
// the old generation holds young objects (docs/performance.md, "Garbage a gateway promoted").
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { abArgs } from './lib/ab-args.mjs';
import { startMcpkit } from './lib/mcpkit-cli.mjs';

const KINDS = ['direct', 'http', 'stdio', 'client-http', 'client-stdio'];
const { files, num, str } = abArgs(process.argv.slice(2), { known: ['only', 'calls', 'concurrency', 'rounds', 'child'] });
const ROOT = fileURLToPath(new URL('..', import.meta.url));

// The traced client process (client-http, client-stdio): `--child ROOT URL|stdio CALLS CONCURRENCY`.
if (str('child', undefined) !== undefined) {
  const [url, calls, concurrency] = files;
  const root = str('child', '');
  const { Client, StreamableHttpTransport, StdioClientTransport } = await import(path.join(root, 'dist/client.js'));
  const { callsAt } = await import('./lib/mcpkit-cli.mjs');
  const client = new Client({ protocolVersion: '2025-11-25' });
  const transport = url === 'stdio' ? new StdioClientTransport({ command: process.execPath, args: [path.join(root, 'bin/mcpkit.js'), 'demo', '--stdio'] }) : new StreamableHttpTransport(url);
  await client.connect(transport);
  await callsAt(client, 5000, Number(concurrency));
  process.stdout.write('\nMEASURE\n');
  await callsAt(client, Number(calls), Number(concurrency));
  process.stdout.write('\nEND\n');
  await client.close();
  process.exit(0);
}

const ONLY = str('only', 'direct,http,stdio').split(',');
for (const kind of ONLY) if (!KINDS.includes(kind)) throw new Error(`--only takes ${KINDS.join(', ')}; got ${JSON.stringify(kind)}`);
const CALLS = num('calls', 20000);
const CONCURRENCY = num('concurrency', 32);
const ROUNDS = num('rounds', 1);
const ROOTS = files.length === 0 ? [ROOT] : files.map((f) => path.resolve(f));
const children = [];

/** Sums a --trace-gc-nvp transcript: per call allocated and promoted bytes and pause, and the collections. */
function summary(trace, calls) {
  const sum = (key) => [...trace.matchAll(new RegExp(`\\b${key}=([\\d.]+)`, 'g'))].reduce((s, m) => s + Number(m[1]), 0);
  const count = (kind) => [...trace.matchAll(new RegExp(`gc=${kind}\\b`, 'g'))].length;
  return { allocated: sum('allocated') / calls, promoted: sum('promoted') / calls, pauseUs: (1000 * sum('pause')) / calls, scavenges: count('s'), markCompacts: count('mc') + count('mmc') };
}

/** `node --trace-gc-nvp <bin> args`, its stdout (the trace) kept; resolves once it says where it listens. */
function traced(bin, args) {
  const child = spawn(process.execPath, ['--trace-gc-nvp', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (c) => {
      seen += c;
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      if (match) resolve({ url: match[1], trace: () => out });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${seen}`)));
  });
}

async function serverSide(root, kind) {
  const bin = path.join(root, 'bin/mcpkit.js');
  const { Client, StreamableHttpTransport } = await import(path.join(root, 'dist/client.js'));
  const { callsAt } = await import('./lib/mcpkit-cli.mjs');
  let target;
  if (kind === 'direct') target = await traced(bin, ['demo', '--port', '0']);
  else if (kind === 'http') {
    const upstream = await startMcpkit(['demo', '--port', '0'], { bin });
    children.push(upstream.child);
    target = await traced(bin, ['proxy', '--port', '0', upstream.url]);
  } else target = await traced(bin, ['proxy', '--port', '0', '--', process.execPath, bin, 'demo', '--stdio']);
  const client = new Client({ protocolVersion: '2025-11-25' });
  await client.connect(new StreamableHttpTransport(target.url));
  await callsAt(client, 5000, CONCURRENCY);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const mark = target.trace().length;
  await callsAt(client, CALLS, CONCURRENCY);
  await new Promise((resolve) => setTimeout(resolve, 200));
  await client.close();
  return summary(target.trace().slice(mark), CALLS);
}

async function clientSide(root, kind) {
  let url = 'stdio';
  if (kind === 'client-http') {
    const upstream = await startMcpkit(['demo', '--port', '0'], { bin: path.join(root, 'bin/mcpkit.js') });
    children.push(upstream.child);
    url = upstream.url;
  }
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--trace-gc-nvp', self, '--child', root, url, String(CALLS), String(CONCURRENCY)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the traced client exited (${code})`);
  return summary(out.slice(out.indexOf('\nMEASURE\n'), out.indexOf('\nEND\n')), CALLS);
}

const rows = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const kind of ONLY) {
      for (const root of r % 2 === 0 ? ROOTS : [...ROOTS].reverse()) {
        const s = kind.startsWith('client-') ? await clientSide(root, kind) : await serverSide(root, kind);
        rows.push({ round: r, kind, root, ...s });
        process.stdout.write(
          `${kind.padEnd(12)} ${path.basename(root).padEnd(10)} allocated ${s.allocated.toFixed(0).padStart(6)} B/call, promoted ${s.promoted.toFixed(0).padStart(5)} B/call, ` +
            `pause ${s.pauseUs.toFixed(2).padStart(6)} µs/call, scavenges ${s.scavenges}, mark-compacts ${s.markCompacts}\n`,
        );
        for (const child of children.splice(0)) child.kill('SIGKILL');
      }
    }
  }
} finally {
  for (const child of children) child.kill('SIGKILL');
}
