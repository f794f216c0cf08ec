#!/usr/bin/env node
// Client-side CPU per tools/call: mcpkit/client next to the official SDK v2 client
// (@modelcontextprotocol/client) against the same server, mcpkit's demo
// (examples/everything-server), over stdio and Streamable HTTP, in one run. The server is a child
// process; this process runs only the client, so its utime + stime (process.cpuUsage) over a
// phase, divided by the calls, is the client's CPU per call. Rounds interleave the two clients so a
// noisy minute hits both; the median of the rounds is reported.
//   node bench/client.bench.mjs [--calls N] [--rounds N] [--warmup N] [--slice N] [--only stdio|http] [WORKTREE ...]   (needs dist/: npm run build)
// --slice N: every client's session is open at once and the calls go in slices of N, each client in turn
// (rotated), so a load that comes and goes hits all of them alike; a round is then CALLS calls of each.
// With worktree roots (A/B), each one's dist/client.js is measured next to the SDK in the same rounds,
// against this worktree's demo; the ratios of B to A are printed too.
// --warmup N (default 2000): calls each session makes before it is measured. Every session spawns its
// own demo, and against a demo still cold (its JIT tiering up, each answer slower) a client's own CPU
// per call came out higher for both clients (mcpkit's 35–58 µs after 200 calls, 23–27 µs after 3000,
// same load), a cost of waiting on a slow server that narrows the ratio; 200 was the figure before.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client as SdkClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as SdkStdioTransport } from '@modelcontextprotocol/client/stdio';
import { abArgs } from './lib/ab-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { files, num, str } = abArgs(process.argv.slice(2), { known: ['calls', 'rounds', 'only', 'slice', 'warmup'] });
const SLICE = num('slice', 0);
const CALLS = num('calls', 2000);
const ROUNDS = num('rounds', 3);
const WARMUP = num('warmup', 2000);
const ONLY = str('only', 'all');
const builds = files.length === 0 ? [root] : files.map((f) => path.resolve(f));
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

const clients = {};
for (const [i, build] of builds.entries()) {
  const { Client, StdioClientTransport, StreamableHttpTransport } = await import(pathToFileURL(path.join(build, 'dist/client.js')).href);
  clients[builds.length === 1 ? 'mcpkit' : `mcpkit ${String.fromCharCode(65 + i)}`] = {
    connect: async (transport, era) => {
      const client = new Client({ protocolVersion: era });
      await client.connect(transport === 'stdio' ? new StdioClientTransport({ command: process.execPath, args: [...DEMO, '--stdio'], cwd: root, graceMs: 200 }) : new StreamableHttpTransport(transport));
      return { call: () => client.callTool(TOOL, {}), close: () => client.close() };
    },
  };
}
Object.assign(clients, {
  'sdk v2': {
    connect: async (transport, era) => {
      const client = new SdkClient({ name: 'bench', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
      await client.connect(transport === 'stdio' ? new SdkStdioTransport({ command: process.execPath, args: [...DEMO, '--stdio'], cwd: root }) : new StreamableHTTPClientTransport(new URL(transport)));
      return { call: () => client.callTool({ name: TOOL, arguments: {} }), close: () => client.close() };
    },
  },
});
const names = Object.keys(clients);
const ours = names.filter((n) => n !== 'sdk v2');

/** µs of this process's CPU per call, for `CALLS` sequential calls after a warm-up. */
async function measure(name, transport, era) {
  const session = await clients[name].connect(transport, era);
  for (let i = 0; i < WARMUP; i++) await session.call();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await session.call();
  const used = process.cpuUsage(before);
  await session.close();
  return (used.user + used.system) / CALLS;
}

/** µs of this process's CPU per call for each client, their sessions open side by side, calls in rotated slices. */
async function measureSliced(transport, era) {
  const sessions = [];
  for (const name of names) sessions.push([name, await clients[name].connect(transport, era)]);
  const used = Object.fromEntries(names.map((n) => [n, 0]));
  try {
    for (const [, session] of sessions) for (let i = 0; i < WARMUP; i++) await session.call();
    for (let done = 0, turn = 0; done < CALLS; done += SLICE, turn++) {
      for (let k = 0; k < sessions.length; k++) {
        const [name, session] = sessions[(k + turn) % sessions.length];
        const before = process.cpuUsage();
        for (let i = 0; i < SLICE; i++) await session.call();
        const cpu = process.cpuUsage(before);
        used[name] += cpu.user + cpu.system;
      }
    }
  } finally {
    for (const [, session] of sessions) await session.close();
  }
  const calls = Math.ceil(CALLS / SLICE) * SLICE;
  return Object.fromEntries(names.map((n) => [n, used[n] / calls]));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const http = await httpServer();
const rows = [];
try {
  const cells = [
    ['stdio 2025-11-25', 'stdio', '2025-11-25'],
    ['stdio 2026-07-28', 'stdio', '2026-07-28'],
    ['HTTP 2025-11-25', http.url, '2025-11-25'],
    ['HTTP 2026-07-28', http.url, '2026-07-28'],
  ].filter(([, transport]) => ONLY === 'all' || (ONLY === 'stdio') === (transport === 'stdio'));
  for (const [label, transport, era] of cells) {
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let r = 0; r < ROUNDS; r++) {
      if (SLICE > 0) {
        const round = await measureSliced(transport, era);
        for (const name of names) samples[name].push(round[name]);
      } else for (const name of r % 2 === 0 ? names : [...names].reverse()) samples[name].push(await measure(name, transport, era));
    }
    const theirs = median(samples['sdk v2']);
    const first = median(samples[ours[0]]);
    const cols = ours.map((n) => {
      const m = median(samples[n]);
      return `${m.toFixed(1)} (${(m / theirs).toFixed(2)}×${n === ours[0] ? '' : `, ${(m / first).toFixed(2)}× A`})`;
    });
    rows.push(`| ${label} | ${cols.join(' | ')} | ${theirs.toFixed(1)} |`);
    console.error(`${label}: ${names.map((n) => `${n} ${samples[n].map((x) => x.toFixed(1)).join(', ')}`).join('; ')} µs/call`);
  }
} finally {
  http.stop();
}
console.log(`client CPU per tools/call (${TOOL}), median of ${ROUNDS} rounds of ${CALLS} calls after ${WARMUP}${SLICE > 0 ? ` (in rotated slices of ${SLICE})` : ''}, µs\n`);
console.log(`| transport, revision | ${ours.map((n) => `${n} (× SDK)`).join(' | ')} | SDK v2 client |\n|---|${ours.map(() => '---|').join('')}---|`);
for (const row of rows) console.log(row);
