// stdio load driver: newline-delimited JSON-RPC over the child's stdin/stdout.
import { performance } from 'node:perf_hooks';
import { spawnServer, cpuMicros, stop } from './proc.mjs';
import { percentile } from './stats.mjs';

export const LEGACY_VERSION = '2025-06-18';
const REQUEST_TIMEOUT_MS = 15000;

export class StdioClient {
  constructor(file, args = [], opts = {}) {
    this.child = spawnServer(file, args, opts);
    this.pid = this.child.pid;
    this.nextId = 1;
    this.pending = new Map();
    this.out = [];
    this.partial = '';
    this.onLine = null; // fast path used by the pipelined phase
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d) => this.#data(d));
    this.child.exited.then(({ code, signal }) => {
      const err = new Error(`server exited (code ${code}, signal ${signal}): ${this.child.stderrTail.trim().slice(-600)}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.dead = err;
      this.onDeath?.(err);
    });
  }

  #data(d) {
    this.partial += d;
    let nl;
    while ((nl = this.partial.indexOf('\n')) !== -1) {
      const line = this.partial.slice(0, nl);
      this.partial = this.partial.slice(nl + 1);
      if (line.trim().length === 0) continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue; // stray log line on stdout; not ours to judge here
      }
      if (msg.method !== undefined) {
        // Server → client request or notification: answer pings, refuse the rest.
        if (msg.id !== undefined) {
          const reply = msg.method === 'ping' ? { result: {} } : { error: { code: -32601, message: 'Method not found' } };
          this.out.push(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...reply }));
        }
        continue;
      }
      if (this.onLine && this.onLine(msg)) continue;
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        p.resolve(msg);
      }
    }
    this.flush();
  }

  flush() {
    if (this.out.length === 0) return;
    const s = this.out.join('\n') + '\n';
    this.out.length = 0;
    this.child.stdin.write(s);
  }

  request(method, params) {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  notify(method, params) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }) + '\n');
  }

  async initialize() {
    const res = await this.request('initialize', {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: 'mcpkit-bench', version: '1.0.0' },
    });
    if (!res.result) throw new Error(`initialize failed: ${JSON.stringify(res.error ?? res).slice(0, 300)}`);
    this.notify('notifications/initialized');
    // Sanity: both tools answer correctly before anything is measured.
    checkEcho(await this.request('tools/call', { name: 'echo', arguments: { text: 'hello' } }), 'hello');
    checkEcho(await this.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }), '5');
    return res.result;
  }

  /**
   * Pipelined calls: keep `inflight` requests outstanding until `count` have been
   * answered, or `maxMs` elapsed (whichever first). Verifies every response.
   * Returns { calls, ms, cpuUs }.
   */
  pipelined({ count = Infinity, maxMs = Infinity, inflight = 64, method = 'tools/call', makeParams = echoParams, verify = verifyEcho }) {
    return new Promise((resolve, reject) => {
      const base = this.nextId;
      this.nextId += 1e9; // reserve an id range for this phase
      let sent = 0;
      let done = 0;
      let failed = null;
      const sendOne = () => {
        const i = sent++;
        this.out.push(JSON.stringify({ jsonrpc: '2.0', id: base + i, method, params: makeParams(i) }));
      };
      const t0 = performance.now();
      const cpu0 = cpuMicros(this.pid);
      let stopSending = false;
      const guard = setTimeout(() => finish(new Error(`pipelined phase stalled (${done} answered)`)), Math.min(maxMs, 600000) + REQUEST_TIMEOUT_MS);
      const finish = (err) => {
        if (this.onLine === null) return;
        clearTimeout(guard);
        this.onLine = null;
        this.onDeath = null;
        if (err) return reject(err);
        const ms = performance.now() - t0;
        resolve({ calls: done, ms, cpuUs: cpuMicros(this.pid) - cpu0 });
      };
      this.onDeath = (err) => finish(err);
      this.onLine = (msg) => {
        const i = msg.id - base;
        if (!(i >= 0 && i < sent)) return false;
        const problem = verify(msg, i);
        if (problem && !failed) failed = new Error(`response ${i} failed verification: ${problem}`);
        done++;
        if (failed) {
          finish(failed);
          return true;
        }
        if (!stopSending && (sent >= count || performance.now() - t0 >= maxMs)) stopSending = true;
        if (!stopSending) sendOne();
        if (done === sent && stopSending) {
          // Drain complete. Resolve after the current chunk is processed.
          queueMicrotask(() => finish());
        }
        return true;
      };
      const initial = Math.min(inflight, count);
      for (let k = 0; k < initial; k++) sendOne();
      this.flush();
    });
  }

  /**
   * One call at a time, at least `count` calls and at least `minMs` of wall time.
   * Returns latency percentiles (µs) and server CPU per call.
   */
  async sequential(count, minMs = 0) {
    const lat = [];
    const t0 = performance.now();
    const cpu0 = cpuMicros(this.pid);
    for (let i = 0; i < count || performance.now() - t0 < minMs; i++) {
      const text = `s${i}`;
      const s = performance.now();
      const res = await this.request('tools/call', { name: 'echo', arguments: { text } });
      lat.push((performance.now() - s) * 1000);
      const problem = verifyEchoText(res, text);
      if (problem) throw new Error(`sequential call ${i}: ${problem}`);
    }
    return { calls: lat.length, p50: percentile(lat, 50), p99: percentile(lat, 99), cpuUsPerCall: (cpuMicros(this.pid) - cpu0) / lat.length };
  }

  close() {
    try {
      this.child.stdin.end();
    } catch {
      /* already closed */
    }
  }
}

export const echoParams = (i) => ({ name: 'echo', arguments: { text: `m${i}` } });
export const verifyEcho = (msg, i) => verifyEchoText(msg, `m${i}`);

export function verifyEchoText(msg, text) {
  if (msg.error) return `error ${JSON.stringify(msg.error).slice(0, 200)}`;
  const r = msg.result;
  if (!r || r.isError || !Array.isArray(r.content) || r.content[0]?.type !== 'text' || r.content[0].text !== text) {
    return `unexpected result ${JSON.stringify(r).slice(0, 200)}`;
  }
  return null;
}

function checkEcho(msg, text) {
  const problem = verifyEchoText(msg, text);
  if (problem) throw new Error(problem);
}

/** Cold start: spawn → first initialize response, in ms. */
export async function coldStart(file) {
  const t0 = performance.now();
  const client = new StdioClient(file);
  try {
    const res = await client.request('initialize', {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: 'mcpkit-bench', version: '1.0.0' },
    });
    const ms = performance.now() - t0;
    if (!res.result) throw new Error(`initialize failed: ${JSON.stringify(res.error ?? res).slice(0, 300)}`);
    return ms;
  } finally {
    client.close();
    await stop(client.child);
  }
}
