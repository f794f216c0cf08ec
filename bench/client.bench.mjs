#!/usr/bin/env node
// Client-side CPU per tools/call: mcpkit/client next to the official SDK v2 client
// (@modelcontextprotocol/client) against the same server, mcpkit's demo
// (examples/everything-server), over stdio and Streamable HTTP, in one run. The server is a child
// process; this process runs only the client, so its utime + stime (process.cpuUsage) over a
// phase, divided by the calls, is the client's CPU per call. Rounds interleave the two clients so a
// noisy minute hits both; the median of the rounds is reported.
//   node bench/client.bench.mjs [--calls N] [--rounds N]      (needs dist/: npm run build)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client as McpkitClient, StdioClientTransport, StreamableHttpTransport } from '../dist/client.js';
import { Client as SdkClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as SdkStdioTransport } from '@modelcontextprotocol/client/stdio';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const CALLS = arg('--calls', 2000);
const ROUNDS = arg('--rounds', 3);
const DEMO = ['examples/everything-server/main.js'];
const TOOL = 'test_simple_text';

/** The demo over HTTP on a free port; resolves with its URL and a stop function. */
async function httpServer() {
  const child = spawn(process.execPath, DEMO, { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /listening on (\S+)/.exec(seen);
      if (match) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`the demo exited: ${seen}`)));
  });
  return { url, stop: () => child.kill('SIGKILL') };
}

const clients = {
  mcpkit: {
    connect: async (transport, era) => {
      const client = new McpkitClient({ protocolVersion: era });
      await client.connect(transport === 'stdio' ? new StdioClientTransport({ command: process.execPath, args: [...DEMO, '--stdio'], cwd: root, graceMs: 200 }) : new StreamableHttpTransport(transport));
      return { call: () => client.callTool(TOOL, {}), close: () => client.close() };
    },
  },
  'sdk v2': {
    connect: async (transport, era) => {
      const client = new SdkClient({ name: 'bench', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
      await client.connect(transport === 'stdio' ? new SdkStdioTransport({ command: process.execPath, args: [...DEMO, '--stdio'], cwd: root }) : new StreamableHTTPClientTransport(new URL(transport)));
      return { call: () => client.callTool({ name: TOOL, arguments: {} }), close: () => client.close() };
    },
  },
};

/** µs of this process's CPU per call, for `CALLS` sequential calls after a warm-up. */
async function measure(name, transport, era) {
  const session = await clients[name].connect(transport, era);
  for (let i = 0; i < 200; i++) await session.call();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await session.call();
  const used = process.cpuUsage(before);
  await session.close();
  return (used.user + used.system) / CALLS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const http = await httpServer();
const rows = [];
try {
  for (const [label, transport, era] of [
    ['stdio 2025-11-25', 'stdio', '2025-11-25'],
    ['stdio 2026-07-28', 'stdio', '2026-07-28'],
    ['HTTP 2025-11-25', http.url, '2025-11-25'],
    ['HTTP 2026-07-28', http.url, '2026-07-28'],
  ]) {
    const samples = { mcpkit: [], 'sdk v2': [] };
    for (let r = 0; r < ROUNDS; r++) for (const name of r % 2 === 0 ? ['mcpkit', 'sdk v2'] : ['sdk v2', 'mcpkit']) samples[name].push(await measure(name, transport, era));
    const ours = median(samples.mcpkit);
    const theirs = median(samples['sdk v2']);
    rows.push(`| ${label} | ${ours.toFixed(1)} | ${theirs.toFixed(1)} | ${(ours / theirs).toFixed(2)}× |`);
    console.error(`${label}: mcpkit ${samples.mcpkit.map((x) => x.toFixed(1)).join(', ')}; sdk v2 ${samples['sdk v2'].map((x) => x.toFixed(1)).join(', ')} µs/call`);
  }
} finally {
  http.stop();
}
console.log(`client CPU per tools/call (${TOOL}), median of ${ROUNDS} rounds of ${CALLS} calls, µs\n`);
console.log('| transport, revision | mcpkit/client | SDK v2 client | ratio |\n|---|---|---|---|');
for (const row of rows) console.log(row);
