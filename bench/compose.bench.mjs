#!/usr/bin/env node
// Composition in-process (no sockets): CPU per tools/call of
//   local        a tool of a server without providers (the path every server takes);
//   local+mount  the same tool on a server that also has a mount (the catalog path);
//   mounted      the child's tool through server.mount (namespace, child validation);
// and tools/list of each. Legacy session and 2026-07-28 requests, 32 in flight, variants alternated.
//   npm run build && node bench/compose.bench.mjs [--n 100000] [--reps 5] [dist-dir]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { abArgs } from './lib/ab-args.mjs';
const { num: opt, files: positional } = abArgs();
const dist = path.resolve(positional[0] ?? new URL('../dist', import.meta.url).pathname);
const N = opt('n', 100_000);
const reps = opt('reps', 5);
const { McpServer } = await import(pathToFileURL(path.join(dist, 'index.js')).href);

const input = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const logger = { error() {}, warn() {} };
function echoServer(name) {
  const server = new McpServer({ name, version: '1.0.0', logger });
  server.tool('echo', { description: 'Echoes', input }, (args) => args.text);
  return server;
}
function variant(kind) {
  const server = echoServer('top');
  if (kind !== 'local') server.mount(echoServer('child'), { namespace: 'docs' });
  return { server, tool: kind === 'mounted' ? 'docs_echo' : 'echo' };
}
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

async function open(kind, era) {
  const { server, tool } = variant(kind);
  const connection = server.openConnection({ send() {} });
  if (era === 'legacy') {
    await connection.handleMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } } });
    await connection.handleMessage({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  let id = 1;
  const meta = era === 'modern' ? { _meta: modernMeta } : {};
  const call = () => ({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: tool, arguments: { text: 'hi' }, ...meta } });
  const list = () => ({ jsonrpc: '2.0', id: id++, method: 'tools/list', params: { ...meta } });
  return { connection, call, list };
}

async function measure(target, make, n) {
  const one = () => Promise.resolve(target.connection.handleMessage(make())).then((answer) => {
    if (answer?.result === undefined) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
  });
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i += 32) await Promise.all(Array.from({ length: 32 }, one));
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / n;
}

const kinds = ['local', 'local+mount', 'mounted'];
for (const era of ['legacy', 'modern']) {
  const targets = Object.fromEntries(await Promise.all(kinds.map(async (k) => [k, await open(k, era)])));
  for (const k of kinds) {
    await measure(targets[k], targets[k].call, 20_000);
    await measure(targets[k], targets[k].list, 5_000);
  }
  const calls = Object.fromEntries(kinds.map((k) => [k, []]));
  const lists = Object.fromEntries(kinds.map((k) => [k, []]));
  for (let r = 0; r < reps; r++) {
    for (const k of kinds) {
      calls[k].push(await measure(targets[k], targets[k].call, N));
      lists[k].push(await measure(targets[k], targets[k].list, N / 4));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(calls.local);
  const baseList = median(lists.local);
  for (const k of kinds) {
    const c = median(calls[k]);
    const l = median(lists[k]);
    process.stdout.write(`${era.padEnd(7)} ${k.padEnd(12)} tools/call ${c.toFixed(2).padStart(6)} µs (${(c / base).toFixed(2)}×)   tools/list ${l.toFixed(2).padStart(6)} µs (${(l / baseList).toFixed(2)}×)\n`);
  }
}
