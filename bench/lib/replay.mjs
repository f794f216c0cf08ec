// Real-traffic HTTP driver: replays what the official SDK v2 client sends (bench/fixtures/traffic.json,
// written by bench/capture.mjs), header for header and byte for byte, over raw keep-alive sockets.
// Only the Host port, the session id, the JSON-RPC id, the echo text and Content-Length change per
// request. A raw socket client costs a few µs per request, so at c=32 the server, not the load
// generator, is what saturates (the node:http client of the old driver capped both servers alike).
import net from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchDir, cpuMicros } from './proc.mjs';
import { percentile } from './stats.mjs';
import { verifyEchoText } from './stdio.mjs';

const TIMEOUT_MS = 15000;
let fixtures;
export function traffic() {
  fixtures ??= JSON.parse(readFileSync(path.join(benchDir, 'fixtures', 'traffic.json'), 'utf8'));
  return fixtures;
}

/** Request bytes from a captured request: headers in the captured order, with the replacements. */
function head(captured, port, sessionId, length, version) {
  const h = captured.rawHeaders;
  let out = `${captured.method} ${captured.path} HTTP/1.1\r\n`;
  for (let i = 0; i < h.length; i += 2) {
    const name = h[i].toLowerCase();
    let value = h[i + 1];
    if (name === 'host') value = `127.0.0.1:${port}`;
    else if (name === 'content-length') value = String(length);
    else if (name === 'mcp-session-id') value = sessionId ?? value;
    else if (name === 'mcp-protocol-version' && version !== undefined) value = version;
    out += `${h[i]}: ${value}\r\n`;
  }
  return out + '\r\n';
}

/** Splits the captured call body around its id and echo text so each request only concatenates. */
function template(call, mark) {
  const id = JSON.parse(call.body).id;
  const idText = `"id":${JSON.stringify(id)}`;
  const [a, rest] = split(call.body, JSON.stringify(mark).slice(1, -1));
  const [b, c] = split(rest, idText);
  return (text, n) => `${a}${text}${b}"id":${n}${c}`;
}
function split(s, part) {
  const i = s.indexOf(part);
  if (i === -1 || s.indexOf(part, i + 1) !== -1) throw new Error(`capture: ${part} must occur once in ${s}`);
  return [s.slice(0, i), s.slice(i + part.length)];
}

/** One keep-alive connection; `send` resolves with { status, headers, body } of the next response. */
class Conn {
  constructor(port) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.buf = Buffer.alloc(0);
    this.waiting = null;
    this.socket.on('data', (d) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      this.parse();
    });
    const die = (e) => this.waiting?.reject(e ?? new Error('connection closed'));
    this.socket.on('error', die);
    this.socket.on('close', () => die());
  }
  send(bytes) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`request timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
      this.waiting = {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      this.socket.write(bytes);
    });
  }
  parse() {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end === -1 || !this.waiting) return;
    const lines = this.buf.toString('latin1', 0, end).split('\r\n');
    const status = Number(lines[0].slice(9, 12));
    const headers = {};
    for (let i = 1; i < lines.length; i++) {
      const c = lines[i].indexOf(':');
      headers[lines[i].slice(0, c).toLowerCase()] = lines[i].slice(c + 1).trim();
    }
    let body;
    let used;
    if (headers['content-length'] !== undefined) {
      used = end + 4 + Number(headers['content-length']);
      if (this.buf.length < used) return;
      body = this.buf.toString('utf8', end + 4, used);
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts = [];
      let at = end + 4;
      for (;;) {
        const eol = this.buf.indexOf('\r\n', at);
        if (eol === -1) return;
        const size = parseInt(this.buf.toString('latin1', at, eol), 16);
        if (this.buf.length < eol + 2 + size + 2) return;
        if (size === 0) {
          used = eol + 4;
          break;
        }
        parts.push(this.buf.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString('utf8');
    } else if (status === 202 || status === 204 || status === 304) {
      used = end + 4;
      body = '';
    } else {
      return; // body until close: not expected from any server here
    }
    this.buf = this.buf.subarray(used);
    const w = this.waiting;
    this.waiting = null;
    w.resolve({ status, headers, body });
  }
  close() {
    this.socket.destroy();
  }
}

/** The JSON-RPC response for `id` in a JSON or SSE body. */
export function responseFor({ status, headers, body }, id) {
  const type = headers['content-type'] ?? '';
  if (type.includes('text/event-stream')) {
    for (const event of body.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(l[5] === ' ' ? 6 : 5))
        .join('\n');
      if (!data) continue;
      const msg = JSON.parse(data);
      if (msg.id === id && (msg.result !== undefined || msg.error !== undefined)) return msg;
    }
    throw new Error(`no response for id ${id} in SSE body: ${body.slice(0, 200)}`);
  }
  if (type.includes('application/json')) return JSON.parse(body);
  throw new Error(`HTTP ${status} ${type || 'no content-type'}: ${body.slice(0, 200)}`);
}

/**
 * Keep-alive connections shared by many clients (the memory section: sessions are not
 * connections in Streamable HTTP, so many sessions share a few sockets).
 */
export class ConnectionPool {
  constructor(port, size) {
    this.free = Array.from({ length: size }, () => new Conn(port));
    this.all = [...this.free];
    this.waiters = [];
  }
  async with(fn) {
    const conn = this.free.pop() ?? (await new Promise((resolve) => this.waiters.push(resolve)));
    try {
      return await fn(conn);
    } finally {
      const next = this.waiters.shift();
      if (next) next(conn);
      else this.free.push(conn);
    }
  }
  close() {
    for (const c of this.all) c.close();
  }
}

/** A real-traffic client for one server and mode: the captured handshake, then captured calls. */
export class ReplayClient {
  /** `pool`: send over these shared connections instead of a connection per open/echo. */
  constructor(port, mode, pool) {
    this.port = port;
    this.mode = mode;
    this.pool = pool;
    this.capture = traffic().modes[mode];
    this.body = template(this.capture.call, traffic().mark);
    this.nextId = 1;
    this.sessionId = undefined;
    /** The negotiated revision (legacy modes), sent in MCP-Protocol-Version instead of the captured one. */
    this.version = undefined;
    this.conns = [];
  }

  request(conn, captured, body) {
    return conn.send(head(captured, this.port, this.sessionId, Buffer.byteLength(body), this.version) + body);
  }

  /** Replays the captured handshake POSTs (initialize + initialized, or server/discover) in order. */
  async open() {
    if (this.pool) return this.pool.with((conn) => this.handshake(conn));
    const conn = new Conn(this.port);
    try {
      return await this.handshake(conn);
    } finally {
      conn.close();
    }
  }

  async handshake(conn) {
    {
      for (const req of this.capture.open) {
        const r = await this.request(conn, req, req.body);
        const msg = JSON.parse(req.body);
        if (msg.method === 'initialize') {
          const res = responseFor(r, msg.id);
          if (!res.result) throw new Error(`initialize failed: HTTP ${r.status} ${JSON.stringify(res).slice(0, 300)}`);
          // As the client does: later requests carry the revision the server answered with.
          if (typeof res.result.protocolVersion === 'string') this.version = res.result.protocolVersion;
          if (this.mode === 'session') {
            this.sessionId = r.headers['mcp-session-id'];
            if (!this.sessionId) throw new Error('session mode: initialize returned no Mcp-Session-Id');
          }
        } else if (msg.id === undefined && r.status >= 300) {
          throw new Error(`${msg.method} answered HTTP ${r.status}`);
        }
      }
    }
    return this;
  }

  async echo(text, conn) {
    if (!conn && this.pool) return this.pool.with((c) => this.echo(text, c));
    const own = !conn;
    conn ??= new Conn(this.port);
    try {
      const id = this.nextId++;
      const r = await this.request(conn, this.capture.call, this.body(text, id));
      const problem = verifyEchoText(responseFor(r, id), text);
      if (problem) throw new Error(`HTTP ${r.status}: ${problem}`);
    } finally {
      if (own) conn.close();
    }
  }

  async check() {
    await this.echo('hello');
  }

  connections(n) {
    while (this.conns.length < n) this.conns.push(new Conn(this.port));
    return this.conns.slice(0, n);
  }

  destroy() {
    for (const c of this.conns) c.close();
    this.conns = [];
  }
}

/** Like lib/http.mjs `load`, over `concurrency` raw keep-alive connections, one request in flight each. */
export async function replayLoad(client, pid, { concurrency, maxMs, count = Infinity }) {
  const conns = client.connections(concurrency);
  let issued = 0;
  let answered = 0;
  const lat = [];
  const t0 = performance.now();
  const cpu0 = cpuMicros(pid);
  const worker = async (conn) => {
    while (issued < count && performance.now() - t0 < maxMs) {
      const i = issued++;
      const s = performance.now();
      await client.echo(`h${i}`, conn);
      lat.push((performance.now() - s) * 1000);
      answered++;
    }
  };
  await Promise.all(conns.map(worker));
  const ms = performance.now() - t0;
  const cpuUs = cpuMicros(pid) - cpu0;
  return { requests: answered, ms, rps: (answered * 1000) / ms, cpuUsPerReq: cpuUs / answered, p50: percentile(lat, 50), p99: percentile(lat, 99) };
}
