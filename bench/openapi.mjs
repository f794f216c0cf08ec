#!/usr/bin/env node
// mcpkit/openapi: (1) GitHub's REST API description (13 MB, 1,223 operations) served over Streamable
// HTTP by a fresh server process: wall time from spawning it to the last page of the first complete
// tools/list (read by this process, as a client would), and the server process's peak RSS (goal
// < 1 s, < 120 MB); (2) CPU per tools/call of a derived tool next to a hand-written tool calling the
// same backend (goal ≤ 1.2×). Needs dist/ (npm run build) in each worktree compared.
//
//   node bench/openapi.mjs [--calls N] [--reps N] [WORKTREE ...]
//
// With several worktrees (default: this one), their runs alternate in one process tree and the
// figures are also given as ratios to the first: a paired A/B on a shared, noisy machine.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { abArgs } from './lib/ab-args.mjs';

const argv = process.argv.slice(2);
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

if (argv[0] === '--child-load') {
  // The server alone: it prints its URL, serves, and on a line on stdin prints its peak RSS and exits.
  const dist = pathToFileURL(path.join(argv[1], 'dist')).href;
  const { McpServer } = await import(`${dist}/index.js`);
  const { listen } = await import(`${dist}/http.js`);
  const { addOpenApiTools } = await import(`${dist}/openapi.js`);
  const { createRequire } = await import('node:module');
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const server = new McpServer({ name: 'github', version: '1' });
  await addOpenApiTools(server, file, { baseUrl: 'https://api.github.com' });
  const listener = await listen(server, { port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url: listener.url })}\n`);
  process.stdin.once('data', () => {
    const cpu = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ peakRssMB: process.resourceUsage().maxRSS / 1024, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
    process.exit(0);
  });
}
else if (argv[0] === '--child-call') {
  const http = await import('node:http');
  const dist = pathToFileURL(path.join(argv[1], 'dist')).href;
  const { McpServer } = await import(`${dist}/index.js`);
  const { Client, InMemoryTransport } = await import(`${dist}/client.js`);
  const { addOpenApiTools } = await import(`${dist}/openapi.js`);
  const calls = Number(argv[2]);
  const backend = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: Number(req.url.split('/').pop()), name: 'Rex', tag: 'dog' })));
  await new Promise((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${backend.address().port}`;
  const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: ['string', 'null'] } } };
  const doc = {
    openapi: '3.1.0', info: { title: 'pets', version: '1' },
    paths: { '/pets/{petId}': { get: { operationId: 'getPet', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'a pet', content: { 'application/json': { schema: pet } } } } } } },
  };
  const server = new McpServer({ name: 'pets', version: '1' });
  await addOpenApiTools(server, doc, { baseUrl });
  // The same call written by hand: same schemas, fetch, status check, JSON parse, structured result.
  server.tool('getPetByHand', { input: { type: 'object', properties: { petId: { type: 'integer' } }, required: ['petId'], additionalProperties: false }, output: pet }, async ({ petId }, ctx) => {
    const response = await fetch(`${baseUrl}/pets/${encodeURIComponent(String(petId))}`, { headers: { accept: 'application/json' }, signal: ctx.signal });
    const text = await response.text();
    if (!response.ok) return { isError: true, content: [{ type: 'text', text: `HTTP ${response.status}: ${text}` }] };
    return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) };
  });
  const client = new Client();
  await client.connect(new InMemoryTransport(server));
  // Both warmed before either is measured: the first few hundred calls of a process pay for JIT
  // compilation and the schemas' first compile, which would land on whichever tool ran first.
  for (let i = 0; i < 500; i++) for (const name of ['getPet', 'getPetByHand']) await client.callTool(name, { petId: i });
  const measure = async (name) => {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await client.callTool(name, { petId: i });
    const used = process.cpuUsage(start);
    return (used.user + used.system) / calls;
  };
  const out = {};
  // Alternate (ABBA ABBA) to spread drift evenly.
  for (const round of [0, 1, 0, 1]) for (const name of round === 0 ? ['getPet', 'getPetByHand'] : ['getPetByHand', 'getPet']) (out[name] ??= []).push(await measure(name));
  console.log(JSON.stringify({ derivedUs: median(out.getPet), handUs: median(out.getPetByHand) }));
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const { opts, files } = abArgs(argv);
const reps = Number(opts.reps ?? 3);
const calls = Number(opts.calls ?? 2000);
const roots = files.length === 0 ? [path.resolve(path.dirname(self), '..')] : files.map((f) => path.resolve(f));

function callChild(root) {
  const r = spawnSync(process.execPath, [self, '--child-call', root, String(calls)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** Spawns the server, lists every page of tools/list over HTTP, then asks the server for its peak RSS. */
async function loadChild(root) {
  const start = performance.now();
  const child = spawn(process.execPath, [self, '--child-load', root], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let buffered = '';
  let wake = () => {};
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
      wake();
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = async () => {
    while (lines.length === 0) {
      await Promise.race([new Promise((resolve) => (wake = resolve)), exited.then(() => { throw new Error('the server exited'); })]);
    }
    return lines.shift();
  };
  const { url } = await next();
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  const post = async (body, extra = {}) => fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id') };
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  let tools = 0;
  let cursor;
  do {
    const page = await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, session)).json();
    tools += page.result.tools.length;
    cursor = page.result.nextCursor;
  } while (cursor !== undefined);
  const ms = performance.now() - start;
  child.stdin.write('stats\n');
  const { peakRssMB, cpuMs } = await next();
  await exited;
  return { ms, peakRssMB, cpuMs, tools };
}

async function main() {
const loads = roots.map(() => []);
const callRuns = roots.map(() => []);
for (let rep = 0; rep < reps; rep++) {
  for (const [i, root] of roots.entries()) loads[i].push(await loadChild(root));
  for (const [i, root] of roots.entries()) callRuns[i].push(callChild(root));
}
const os = await import('node:os');
const results = roots.map((root, i) => {
  const derived = median(callRuns[i].map((r) => r.derivedUs));
  const hand = median(callRuns[i].map((r) => r.handUs));
  return {
    worktree: root,
    github: { tools: loads[i][0].tools, firstToolsListMs: Math.round(median(loads[i].map((l) => l.ms))), serverCpuMs: Math.round(median(loads[i].map((l) => l.cpuMs))), peakRssMB: Math.round(median(loads[i].map((l) => l.peakRssMB))), runs: loads[i].map((l) => [Math.round(l.ms), Math.round(l.cpuMs), Math.round(l.peakRssMB)]) },
    perCall: { derivedCpuUs: Math.round(derived), handWrittenCpuUs: Math.round(hand), ratio: Number((derived / hand).toFixed(2)) },
  };
});
const first = results[0];
for (const r of results) {
  r.toFirst = {
    firstToolsListMs: Number((r.github.firstToolsListMs / first.github.firstToolsListMs).toFixed(2)),
    serverCpuMs: Number((r.github.serverCpuMs / first.github.serverCpuMs).toFixed(2)),
    peakRssMB: Number((r.github.peakRssMB / first.github.peakRssMB).toFixed(2)),
    derivedCpuUs: Number((r.perCall.derivedCpuUs / first.perCall.derivedCpuUs).toFixed(2)),
  };
}
console.log(JSON.stringify({ goal: { firstToolsListMs: '< 1000', peakRssMB: '< 120', perCallRatio: '≤ 1.2' }, results, loadavg: os.loadavg().map((x) => Number(x.toFixed(1))) }, null, 2));
}

if (!String(argv[0]).startsWith('--child-')) await main();
