#!/usr/bin/env node
// Proxied vs direct, against the same upstream in one run (issue 25's goals):
//   - added p50 latency per tools/call at c=1 (goal ≤ 100 µs),
//   - the gateway's CPU per proxied call vs the upstream server's CPU per direct call at c=32 (goal ≤ 1.5×),
//   - upstream requests per proxied call, counted at the upstream (goal exactly 1).
// The upstream is mcpkit's demo over HTTP, and the same demo over stdio behind the gateway. Each
// server is its own process; CPU is read from /proc/<pid>/stat (Linux). Needs dist/ (npm run build).
//
//   node bench/proxy.mjs [--calls N] [--concurrency C]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHttpTransport } from '../dist/client.js';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const CALLS = option('calls', 2000);
const CONCURRENCY = option('concurrency', 32);
const BIN = fileURLToPath(new URL('../bin/mcpkit.js', import.meta.url));
const CLK_TCK = 100;
const children = [];
// undici drops a fetch's abort listener when the request is collected, not when it ends: at c=32 the
// count passes the warning threshold between collections (no leak), and the warnings would drown the result.
process.removeAllListeners('warning');

function start(args) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      seen += chunk;
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`mcpkit ${args.join(' ')} exited (${code}):\n${seen}`)));
  });
}

/** CPU seconds (user + system) of a process and its children that were waited for. */
function cpu(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** The pid of the one child process of `parent` (the stdio upstream the gateway spawned). */
function childOf(parent) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

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

async function loaded(c, n, concurrency) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < n) await c.callTool('test_simple_text');
  }));
}

const p50 = (sorted) => sorted[Math.floor(sorted.length / 2)];

async function main() {
  const direct = await start(['demo', '--port', '0']);
  const viaHttp = await start(['proxy', '--port', '0', direct.url]);
  const viaStdio = await start(['proxy', '--port', '0', '--', process.execPath, BIN, 'demo', '--stdio']);
  const stdioUpstream = childOf(viaStdio.child.pid);
  const clients = { direct: await client(direct.url), http: await client(viaHttp.url), stdio: await client(viaStdio.url) };
  for (const c of Object.values(clients)) await latencies(c, 300); // warm up (JIT, sockets, upstream links)

  // Alternate the three in rounds so drift on a shared machine hits all of them alike.
  const lat = { direct: [], http: [], stdio: [] };
  const rounds = 5;
  for (let r = 0; r < rounds; r++) for (const [name, c] of Object.entries(clients)) lat[name].push(p50(await latencies(c, Math.ceil(CALLS / rounds))));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  // CPU at c=32: the direct server's CPU per call, the gateway's CPU per proxied call.
  const cpuPerCall = async (c, pid) => {
    const before = cpu(pid);
    await loaded(c, CALLS, CONCURRENCY);
    return ((cpu(pid) - before) / CALLS) * 1e6;
  };
  const directCpu = await cpuPerCall(clients.direct, direct.child.pid);
  const httpUpstreamBefore = cpu(direct.child.pid);
  const httpCpu = await cpuPerCall(clients.http, viaHttp.child.pid);
  const httpUpstreamCpu = ((cpu(direct.child.pid) - httpUpstreamBefore) / CALLS) * 1e6;
  const stdioCpu = await cpuPerCall(clients.stdio, viaStdio.child.pid);

  // Upstream requests per proxied call, counted on the wire by a hop between a third gateway and the demo.
  const hop = await countingHop(direct.url);
  const viaHop = await start(['proxy', '--port', '0', hop.url]);
  const counter = await client(viaHop.url);
  await counter.callTool('test_simple_text'); // the session's upstream link opens here
  const before = { ...hop.counts };
  const N = 500;
  await loaded(counter, N, CONCURRENCY);
  const delta = Object.fromEntries(Object.entries(hop.counts).map(([m, n]) => [m, n - (before[m] ?? 0)]).filter(([, n]) => n > 0));
  const counted = { proxied_calls: N, upstream_requests: delta, per_call: Object.values(delta).reduce((a, b) => a + b, 0) / N };
  await counter.close();
  hop.close();

  const result = {
    calls: CALLS,
    concurrency: CONCURRENCY,
    p50_us: { direct: median(lat.direct), proxied_http: median(lat.http), proxied_stdio: median(lat.stdio) },
    added_p50_us: { http: median(lat.http) - median(lat.direct), stdio: median(lat.stdio) - median(lat.direct) },
    cpu_us_per_call: { direct_server: directCpu, gateway_http: httpCpu, gateway_stdio: stdioCpu, upstream_behind_gateway: httpUpstreamCpu },
    cpu_ratio: { http: httpCpu / directCpu, stdio: stdioCpu / directCpu },
    upstream_requests_per_call: counted,
    stdio_upstream_pid_found: stdioUpstream !== undefined,
  };
  console.log(JSON.stringify(result, null, 2));
  for (const c of Object.values(clients)) await c.close();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGKILL');
  });
