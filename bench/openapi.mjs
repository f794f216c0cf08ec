#!/usr/bin/env node
// mcpkit/openapi: (1) GitHub's REST API description (13 MB, 1,223 operations) to the first complete
// tools/list over Streamable HTTP, in a fresh process: wall time since process start and peak RSS
// (goal < 1 s, < 120 MB); (2) CPU per tools/call of a derived tool next to a hand-written tool
// calling the same backend (goal ≤ 1.2×). Needs dist/ (npm run build).
//
//   node bench/openapi.mjs [--calls N] [--reps N]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(`--${name}`) ? Number(argv[argv.indexOf(`--${name}`) + 1]) : fallback);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (argv[0] === '--child-load') {
  const { McpServer } = await import('../dist/index.js');
  const { listen } = await import('../dist/http.js');
  const { addOpenApiTools } = await import('../dist/openapi.js');
  const { createRequire } = await import('node:module');
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const server = new McpServer({ name: 'github', version: '1' });
  await addOpenApiTools(server, file, { baseUrl: 'https://api.github.com' });
  const listener = await listen(server, { port: 0, host: '127.0.0.1' });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  const post = async (body, extra = {}) => fetch(listener.url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
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
  const ms = performance.now();
  console.log(JSON.stringify({ ms, peakRssMB: process.resourceUsage().maxRSS / 1024, tools }));
  await listener.close();
  process.exit(0);
}

if (argv[0] === '--child-call') {
  const http = await import('node:http');
  const { McpServer } = await import('../dist/index.js');
  const { Client, InMemoryTransport } = await import('../dist/client.js');
  const { addOpenApiTools } = await import('../dist/openapi.js');
  const calls = Number(argv[1]);
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
  const measure = async (name) => {
    for (let i = 0; i < 200; i++) await client.callTool(name, { petId: i });
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await client.callTool(name, { petId: i });
    const used = process.cpuUsage(start);
    return (used.user + used.system) / calls;
  };
  const out = {};
  // Alternate to spread drift evenly.
  for (const round of [0, 1]) for (const name of round === 0 ? ['getPet', 'getPetByHand'] : ['getPetByHand', 'getPet']) (out[name] ??= []).push(await measure(name));
  console.log(JSON.stringify({ derivedUs: median(out.getPet), handUs: median(out.getPetByHand) }));
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const reps = option('reps', 3);
const child = (args) => {
  const r = spawnSync(process.execPath, [self, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
};
const loads = Array.from({ length: reps }, () => child(['--child-load']));
const callRuns = Array.from({ length: reps }, () => child(['--child-call', String(option('calls', 2000))]));
const derived = median(callRuns.map((r) => r.derivedUs));
const hand = median(callRuns.map((r) => r.handUs));
console.log(JSON.stringify({
  github: { tools: loads[0].tools, firstToolsListMs: Math.round(median(loads.map((l) => l.ms))), peakRssMB: Math.round(median(loads.map((l) => l.peakRssMB))), goal: '< 1000 ms, < 120 MB' },
  perCall: { derivedCpuUs: Math.round(derived), handWrittenCpuUs: Math.round(hand), ratio: Number((derived / hand).toFixed(2)), goal: '≤ 1.2' },
  loadavg: (await import('node:os')).loadavg().map((x) => Number(x.toFixed(1))),
}, null, 2));
