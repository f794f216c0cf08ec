#!/usr/bin/env node
// CPU profile of `mcpkit proxy` at c=32 in front of mcpkit's demo, over an HTTP or a stdio upstream:
//   node bench/proxy-profile.mjs [--upstream http|stdio] [--calls 8000] [--top 30] [WORKTREE]
// The gateway runs with --cpu-prof (WORKTREE's bin/mcpkit.js, default this one); the top self-time
// frames and files are printed, and the .cpuprofile is kept for a flame graph.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHttpTransport } from '../dist/client.js';
import { abArgs } from './lib/ab-args.mjs';

const { files, num, str } = abArgs(process.argv.slice(2), { known: ['upstream', 'calls', 'top'] });
const kind = str('upstream', 'http');
const CALLS = num('calls', 8000);
const TOP = num('top', 30);
const BIN = fileURLToPath(new URL('../bin/mcpkit.js', import.meta.url));
const GATEWAY = files.length === 0 ? BIN : path.join(path.resolve(files[0]), 'bin/mcpkit.js');
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'profiles', `proxy-${kind}-${Date.now()}`);
mkdirSync(dir, { recursive: true });
const children = [];
process.removeAllListeners('warning');

function start(args, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      seen += chunk;
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${seen}`)));
  });
}

async function load(c, n) {
  let next = 0;
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next++ < n) await c.callTool('test_simple_text');
  }));
}

try {
  const direct = kind === 'http' ? await start([BIN, 'demo', '--port', '0']) : undefined;
  const upstream = direct !== undefined ? [direct.url] : ['--', process.execPath, BIN, 'demo', '--stdio'];
  const gateway = await start([GATEWAY, 'proxy', '--port', '0', ...upstream], ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const c = new Client({ protocolVersion: '2025-11-25' });
  await c.connect(new StreamableHttpTransport(gateway.url));
  await load(c, 1000);
  await load(c, CALLS);
  await c.close();
  const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
  gateway.child.kill('SIGINT');
  await exited;
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${dir}`);
  const prof = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    total += dt;
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/').replace(/^node:/, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const calls = CALLS + 1000;
  const line = (key, us) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / calls).toFixed(2).padStart(6)} µs/call  ${key}\n`;
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) process.stdout.write(line(key, us));
  const byFile = new Map();
  for (const [key, us] of self) {
    const f = key.split(' ').slice(1).join(' ').replace(/:\d+$/, '');
    byFile.set(f, (byFile.get(f) ?? 0) + us);
  }
  process.stdout.write('by file:\n');
  for (const [key, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, TOP)) process.stdout.write(line(key, us));
  process.stdout.write(`profile: ${path.relative(process.cwd(), path.join(dir, file))} (wall of samples ${(total / 1000).toFixed(0)} ms, idle included)\n`);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}
