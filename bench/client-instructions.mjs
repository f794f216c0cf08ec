#!/usr/bin/env node
// Client-side instructions per sequential tools/call over stdio, mcpkit/client next to the official
// SDK v2 client, counted by valgrind (callgrind, every thread of the client process; the demo server
// it spawns runs natively, uncounted). A count does not move with the machine's load, which the CPU
// figures of client.bench.mjs do by 2×; what it leaves out is the kernel (the write, the read and
// the epoll wake-up per call, which both clients pay alike), so it says what each client's own code
// costs, not its whole CPU.
//   node bench/client-instructions.mjs [--calls N] [--warmup N] [--windows N] [--era 2025-11-25|2026-07-28|all] [--no-sdk] [WORKTREE ...]
// Each client runs in a process of its own under callgrind: WARMUP calls (start-up, the handshake and
// JIT tier-up stay out), then WINDOWS windows of CALLS calls back to back, each counted on its own (a
// dump at every process.cpuUsage() call the client makes between them); the median window over CALLS
// is the figure, and the windows are printed (a major GC falls in one window and not another). With worktree roots (A/B)
// each one's dist/client.js is counted; --no-sdk leaves the SDK out (an A/B of mcpkit builds).
// Needs valgrind and dist/ (npm run build); about 30 s per mcpkit run and 90 s per SDK run at the defaults.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { abArgs } from './lib/ab-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { files, num, str, flag } = abArgs(process.argv.slice(2), { known: ['calls', 'warmup', 'windows', 'era', 'client', 'build'], flags: ['child', 'no-sdk'] });
const CALLS = num('calls', 2000);
const WARMUP = num('warmup', 8000);
const WINDOWS = num('windows', 5);
const DEMO = ['examples/everything-server/main.js', '--stdio'];

if (flag('child')) {
  const era = str('era', '2025-11-25');
  let call;
  let close;
  if (str('client', 'mcpkit') === 'sdk') {
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const client = new Client({ name: 'bench', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
    await client.connect(new StdioClientTransport({ command: process.execPath, args: DEMO, cwd: root, stderr: 'ignore' }));
    call = () => client.callTool({ name: 'test_simple_text', arguments: {} });
    close = () => client.close();
  } else {
    const { Client, StdioClientTransport } = await import(pathToFileURL(path.join(str('build', root), 'dist/client.js')).href);
    const client = new Client({ protocolVersion: era });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: DEMO, cwd: root, graceMs: 200 }));
    call = () => client.callTool('test_simple_text', {});
    close = () => client.close();
  }
  for (let i = 0; i < WARMUP; i++) await call();
  // callgrind dumps (and zeroes) its counts on entering node::CPUUsage (--dump-before): each window is
  // one dump, marked from here without pausing the client (a pause for callgrind_control made the next
  // windows count 2-3× more).
  process.cpuUsage();
  for (let w = 0; w < WINDOWS; w++) {
    for (let i = 0; i < CALLS; i++) await call();
    process.cpuUsage();
  }
  await close();
  process.exit(0);
}

const builds = files.length === 0 ? [root] : files.map((f) => path.resolve(f));
const ERAS = str('era', 'all') === 'all' ? ['2025-11-25', '2026-07-28'] : [str('era', 'all')];
const clients = [...builds.map((build, i) => ({ name: builds.length === 1 ? 'mcpkit' : `mcpkit ${String.fromCharCode(65 + i)}`, args: ['--client', 'mcpkit', '--build', build] })), ...(flag('no-sdk') ? [] : [{ name: 'sdk v2', args: ['--client', 'sdk'] }])];
const ours = clients.filter((c) => c.name !== 'sdk v2');
const scratch = mkdtempSync(path.join(tmpdir(), 'client-instructions-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Instructions per call in each window of one client process under callgrind. */
async function windows(client, era) {
  const out = path.join(scratch, `cg-${client.name.replace(/\W/g, '')}-${era}.out`);
  const args = ['--tool=callgrind', '--smc-check=all-non-file', '--dump-before=node::CPUUsage*', `--callgrind-out-file=${out}`, process.execPath, fileURLToPath(import.meta.url), '--child', ...client.args, '--era', era, '--warmup', String(WARMUP), '--calls', String(CALLS), '--windows', String(WINDOWS)];
  const child = spawn('valgrind', args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${client.name} under callgrind exited with ${code}:\n${log.slice(-2000)}`);
  // Dump 1 is start-up and warm-up; dumps 2 to WINDOWS + 1 are the windows, each counted since the one before.
  const perCall = [];
  for (let n = 2; n <= WINDOWS + 1; n++) {
    const totals = /^totals: (\d+)/m.exec(readFileSync(`${out}.${n}`, 'utf8'));
    if (!totals) throw new Error(`no totals in ${out}.${n}`);
    perCall.push(Number(totals[1]) / CALLS);
  }
  return perCall;
}

const k = (n) => (n / 1000).toFixed(1);
const rows = [];
try {
  for (const era of ERAS) {
    const perCall = {};
    for (const client of clients) {
      const samples = await windows(client, era);
      perCall[client.name] = median(samples);
      console.error(`${era} ${client.name}: ${samples.map(k).join(', ')} k instructions/call (windows of ${CALLS} after ${WARMUP})`);
    }
    const theirs = perCall['sdk v2'];
    const first = perCall[ours[0].name];
    const cols = ours.map((c) => {
      const notes = [theirs === undefined ? '' : `${(perCall[c.name] / theirs).toFixed(2)}×`, c === ours[0] ? '' : `${(perCall[c.name] / first).toFixed(2)}× A`].filter(Boolean);
      return `${k(perCall[c.name])}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
    });
    rows.push(`| stdio ${era} | ${cols.join(' | ')} | ${theirs === undefined ? '' : k(theirs)} |`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`client instructions per tools/call (test_simple_text) over stdio, thousands, callgrind: median of ${WINDOWS} windows of ${CALLS} calls after ${WARMUP}\n`);
console.log(`| transport, revision | ${ours.map((c) => `${c.name} (× SDK)`).join(' | ')} | SDK v2 client |\n|---|${ours.map(() => '---|').join('')}---|`);
for (const row of rows) console.log(row);
