#!/usr/bin/env node
// Proxied vs direct, against the same upstream in one run (issue 25's goals):
//   - added p50 latency per tools/call at c=1 (goal ≤ 100 µs),
//   - the gateway's CPU per proxied call vs the upstream server's CPU per direct call at c=32 (goal ≤ 1.5×),
//   - upstream requests per proxied call, counted at the upstream (goal exactly 1).
// The upstream is mcpkit's demo over HTTP, and the same demo over stdio behind the gateway. Each
// server is its own process; CPU is read from /proc/<pid>/stat (Linux). Needs dist/ (npm run build).
// Next to them, bench/servers/reference-hop.mjs: a node:http hop that forwards the bytes and parses
// nothing, the least a Node HTTP proxy costs (its added p50 and CPU per call; the gateway's HTTP cells
// also give their ratio to it); and bench/servers/reference-stdio-hop.mjs, the same for a stdio upstream:
// each POSTed body written as a line to one child demo, its next answer line sent back (the stdio cells'
// ratios are to it).
//
//   node bench/proxy.mjs [--calls N] [--concurrency C] [--rounds N] [--only http|stdio] [WORKTREE ...]
// With worktree roots (A/B), each one's gateway (its bin/mcpkit.js and dist/) is measured against
// the same direct server (this worktree's demo) in the same run; the ratios of each to A are printed.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHttpTransport } from '../dist/client.js';
import { abArgs } from './lib/ab-args.mjs';
import { BIN, callsAt, childOf, startMcpkit } from './lib/mcpkit-cli.mjs';
import { cpuMicros, cpuSplitMicros } from './lib/proc.mjs';

const { files, num, str } = abArgs(process.argv.slice(2), { known: ['calls', 'concurrency', 'rounds', 'only'] });
const ONLY = str('only', 'all');
if (!['all', 'http', 'stdio'].includes(ONLY)) throw new Error(`--only takes http or stdio, got ${JSON.stringify(ONLY)}`);
const CALLS = num('calls', 2000);
const CONCURRENCY = num('concurrency', 32);
const ROUNDS = num('rounds', 5);
const HOP = fileURLToPath(new URL('./servers/reference-hop.mjs', import.meta.url));
const STDIO_HOP = fileURLToPath(new URL('./servers/reference-stdio-hop.mjs', import.meta.url));
const BINS = files.length === 0 ? [BIN] : files.map((f) => path.join(path.resolve(f), 'bin/mcpkit.js'));
const children = [];
// undici drops a fetch's abort listener when the request is collected, not when it ends: at c=32 the
// count passes the warning threshold between collections (no leak), and the warnings would drown the result.
process.removeAllListeners('warning');

async function start(args, bin = BIN) {
  const started = await startMcpkit(args, { bin });
  children.push(started.child);
  return started;
}

/** CPU seconds (user + system) of a process. */
const cpu = (pid) => cpuMicros(pid) / 1e6;

/** A pass-through HTTP hop that counts the JSON-RPC methods POSTed through it (upstream requests). */
function countingHop(target) {
  const counts = {};
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') {
        try {
          const message = JSON.parse(body.toString('utf8'));
          for (const m of Array.isArray(message) ? message : [message]) if (typeof m.method === 'string') counts[m.method] = (counts[m.method] ?? 0) + 1;
        } catch {
          // not JSON: not counted
        }
      }
      const out = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}${upstream.pathname}`, counts, close: () => server.close() })));
}

async function client(url) {
  const c = new Client({ protocolVersion: '2025-11-25' });
  await c.connect(new StreamableHttpTransport(url));
  return c;
}

async function latencies(c, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await c.callTool('test_simple_text');
    out.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  return out.sort((a, b) => a - b);
}

const p50 = (sorted) => sorted[Math.floor(sorted.length / 2)];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const direct = await start(['demo', '--port', '0']);
  const builds = [];
  for (const bin of BINS) {
    const viaHttp = await start(['proxy', '--port', '0', direct.url], bin);
    const viaStdio = await start(['proxy', '--port', '0', '--', process.execPath, BIN, 'demo', '--stdio'], bin);
    builds.push({ bin, viaHttp, viaStdio, stdioUpstream: childOf(viaStdio.child.pid), http: await client(viaHttp.url), stdio: await client(viaStdio.url) });
  }
  const kinds = ONLY === 'all' ? ['http', 'stdio'] : [ONLY];
  const hop = await start([direct.url], HOP);
  const stdioHop = kinds.includes('stdio') ? await start([process.execPath, BIN, 'demo', '--stdio'], STDIO_HOP) : undefined;
  const directClient = await client(direct.url);
  const hopClient = await client(hop.url);
  const hops = [['hop', hopClient, hop.child.pid], ...(stdioHop === undefined ? [] : [['stdio-hop', await client(stdioHop.url), stdioHop.child.pid]])];
  const targets = [['direct', directClient, direct.child.pid], ...hops, ...builds.flatMap((b, i) => kinds.map((kind) => [`${i}:${kind}`, b[kind], (kind === 'http' ? b.viaHttp : b.viaStdio).child.pid]))];
  for (const [, c] of targets) await latencies(c, 300); // warm up (JIT, sockets, upstream links)

  // Alternate every target in rounds so drift on a shared machine hits all of them alike.
  const lat = Object.fromEntries(targets.map(([name]) => [name, []]));
  const cpus = Object.fromEntries(targets.map(([name]) => [name, []]));
  // The kernel's share (system time): a hop does twice the socket work of a direct server, which no user-space change removes.
  const sys = Object.fromEntries(targets.map(([name]) => [name, []]));
  const upstreamCpu = builds.map(() => []);
  const cpuPerCall = async (name, c, pid) => {
    const before = cpuSplitMicros(pid);
    await callsAt(c, CALLS, CONCURRENCY);
    const after = cpuSplitMicros(pid);
    sys[name].push((after.system - before.system) / CALLS);
    return (after.user + after.system - before.user - before.system) / CALLS;
  };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? targets : [...targets].reverse();
    for (const [name, c] of order) lat[name].push(p50(await latencies(c, Math.ceil(CALLS / ROUNDS))));
    // CPU at c=32: the direct server's CPU per call, each gateway's CPU per proxied call.
    for (const [name, c, pid] of order) {
      const upstreamBefore = cpu(direct.child.pid);
      cpus[name].push(await cpuPerCall(name, c, pid));
      const i = Number(name.split(':')[0]);
      if (name.endsWith(':http')) upstreamCpu[i].push(((cpu(direct.child.pid) - upstreamBefore) / CALLS) * 1e6);
    }
  }

  // Upstream requests per proxied call, counted on the wire by a hop between one more gateway and the demo.
  const counting = await countingHop(direct.url);
  const viaHop = await start(['proxy', '--port', '0', counting.url], BINS[BINS.length - 1]);
  const counter = await client(viaHop.url);
  await counter.callTool('test_simple_text'); // the session's upstream link opens here
  const before = { ...counting.counts };
  const N = 500;
  await callsAt(counter, N, CONCURRENCY);
  const delta = Object.fromEntries(Object.entries(counting.counts).map(([m, n]) => [m, n - (before[m] ?? 0)]).filter(([, n]) => n > 0));
  const counted = { proxied_calls: N, upstream_requests: delta, per_call: Object.values(delta).reduce((a, b) => a + b, 0) / N };
  await counter.close();
  counting.close();

  const directP50 = median(lat.direct);
  const directCpu = median(cpus.direct);
  const hopP50 = median(lat.hop);
  const hopCpu = median(cpus.hop);
  const stdioHopP50 = stdioHop === undefined ? undefined : median(lat['stdio-hop']);
  const stdioHopCpu = stdioHop === undefined ? undefined : median(cpus['stdio-hop']);
  const result = {
    calls: CALLS,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    direct: { p50_us: directP50, cpu_us_per_call: directCpu, system_us_per_call: median(sys.direct) },
    reference_hop: { p50_us: hopP50, added_p50_us: hopP50 - directP50, cpu_us_per_call: hopCpu, system_us_per_call: median(sys.hop), cpu_ratio_to_direct: hopCpu / directCpu },
    ...(stdioHop === undefined ? {} : { reference_stdio_hop: { p50_us: stdioHopP50, added_p50_us: stdioHopP50 - directP50, cpu_us_per_call: stdioHopCpu, system_us_per_call: median(sys['stdio-hop']), cpu_ratio_to_direct: stdioHopCpu / directCpu } }),
    gateways: builds.map((b, i) => {
      const cell = (kind) => {
        const p = median(lat[`${i}:${kind}`]);
        const c = median(cpus[`${i}:${kind}`]);
        const a = i === 0 ? undefined : median(cpus[`0:${kind}`]);
        return { p50_us: p, added_p50_us: p - directP50, cpu_us_per_call: c, system_us_per_call: median(sys[`${i}:${kind}`]), cpu_ratio_to_direct: c / directCpu, ...(a === undefined ? {} : { cpu_ratio_to_A: c / a }) };
      };
      const out = { build: path.dirname(path.dirname(b.bin)) };
      if (kinds.includes('http')) {
        const http = cell('http');
        out.http = { ...http, cpu_ratio_to_hop: http.cpu_us_per_call / hopCpu, added_p50_ratio_to_hop: http.added_p50_us / (hopP50 - directP50), upstream_cpu_us_per_call: median(upstreamCpu[i]) };
      }
      if (kinds.includes('stdio')) {
        const stdio = cell('stdio');
        out.stdio = { ...stdio, cpu_ratio_to_hop: stdio.cpu_us_per_call / stdioHopCpu, added_p50_ratio_to_hop: stdio.added_p50_us / (stdioHopP50 - directP50) };
        out.stdio_upstream_pid_found = b.stdioUpstream !== undefined;
      }
      return out;
    }),
    upstream_requests_per_call: counted,
  };
  console.log(JSON.stringify(result, null, 2));
  for (const [, c] of targets) await c.close();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGKILL');
  });
