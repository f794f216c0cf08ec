#!/usr/bin/env node
// CPU profile of the client side of sequential tools/call over stdio against mcpkit's demo:
//   node bench/client-profile.mjs [--client mcpkit|sdk] [--era 2025-11-25|2026-07-28] [--calls 20000] [--top 30]
// A child process runs only the client loop under --cpu-prof (the demo is its own child, unprofiled);
// the top self-time frames and files are printed in µs per call, idle excluded, and the .cpuprofile is
// kept for a flame graph. Needs dist/ (npm run build).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { abArgs } from './lib/ab-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { num, str, flag } = abArgs(process.argv.slice(2), { known: ['client', 'era', 'calls', 'top'], flags: ['child'] });
const CLIENT = str('client', 'mcpkit');
const ERA = str('era', '2025-11-25');
const CALLS = num('calls', 20000);
const TOP = num('top', 30);
const DEMO = ['examples/everything-server/main.js', '--stdio'];

if (flag('child')) {
  let call;
  let close;
  if (CLIENT === 'sdk') {
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const client = new Client({ name: 'bench', version: '1.0.0' }, ERA === '2026-07-28' ? { versionNegotiation: { mode: { pin: ERA } } } : {});
    await client.connect(new StdioClientTransport({ command: process.execPath, args: DEMO, cwd: root }));
    call = () => client.callTool({ name: 'test_simple_text', arguments: {} });
    close = () => client.close();
  } else {
    const { Client, StdioClientTransport } = await import(pathToFileURL(path.join(root, 'dist/client.js')).href);
    const client = new Client({ protocolVersion: ERA });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: DEMO, cwd: root, graceMs: 200 }));
    call = () => client.callTool('test_simple_text', {});
    close = () => client.close();
  }
  for (let i = 0; i < 1000; i++) await call();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  const used = process.cpuUsage(before);
  process.stderr.write(`cpu ${((used.user + used.system) / CALLS).toFixed(1)} µs/call (user ${(used.user / CALLS).toFixed(1)}, system ${(used.system / CALLS).toFixed(1)})\n`);
  await close();
  process.exit(0);
}

const dir = path.join(root, 'bench', 'results', 'profiles', `client-${CLIENT}-${ERA}-${Date.now()}`);
mkdirSync(dir, { recursive: true });
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, fileURLToPath(import.meta.url), '--child', '--client', CLIENT, '--era', ERA, '--calls', String(CALLS)], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
const code = await new Promise((resolve) => child.once('exit', resolve));
if (code !== 0) throw new Error(`the profiled client exited with ${code}`);
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${dir}`);
const prof = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
let busy = 0;
prof.samples.forEach((id, i) => {
  const dt = prof.timeDeltas[i] ?? 0;
  const f = byId.get(id).callFrame;
  if (f.functionName === '(idle)') return;
  busy += dt;
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/').replace(/^node:/, '')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
});
const calls = CALLS + 1000;
const line = (key, us) => `${((100 * us) / busy).toFixed(1).padStart(5)} %  ${(us / calls).toFixed(2).padStart(6)} µs/call  ${key}\n`;
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) process.stdout.write(line(key, us));
const byFile = new Map();
for (const [key, us] of self) {
  const f = key.split(' ').slice(1).join(' ').replace(/:\d+$/, '');
  byFile.set(f, (byFile.get(f) ?? 0) + us);
}
process.stdout.write('by file:\n');
for (const [key, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, TOP)) process.stdout.write(line(key, us));
process.stdout.write(`profile: ${path.relative(process.cwd(), path.join(dir, file))} (busy samples ${(busy / 1000).toFixed(0)} ms, idle excluded)\n`);
