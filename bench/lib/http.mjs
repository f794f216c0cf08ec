// Streamable HTTP load driver: keep-alive loopback client, one JSON-RPC message
// per POST, JSON or SSE responses, every response verified.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { cpuMicros } from './proc.mjs';
import { percentile } from './stats.mjs';
import { LEGACY_VERSION, verifyEchoText } from './stdio.mjs';
import { responseFor } from './replay.mjs';

export const MODERN_VERSION = '2026-07-28';
const REQUEST_TIMEOUT_MS = 15000;

/** The old driver's answers are read exactly as the replay driver reads them. */
function parseBody(res, text, id) {
  return responseFor({ status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? '') }, body: text }, id);
}

/**
 * A client bound to one server and one mode:
 *  - 'stateless': legacy (2025-06-18) requests without a session,
 *  - 'session': legacy with Mcp-Session-Id from initialize,
 *  - 'modern': 2026-07-28 per-request envelope (headers + params._meta).
 */
export class HttpClient {
  constructor(port, mode, { maxSockets = 32, agent, headers = {} } = {}) {
    this.port = port;
    /** Sent with every request (e.g. `authorization`). */
    this.extraHeaders = headers;
    this.mode = mode;
    this.agent = agent ?? new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
    this.nextId = 1;
    this.sessionId = undefined;
  }

  post(message, extraHeaders = {}) {
    const body = JSON.stringify(message);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': Buffer.byteLength(body),
      ...this.extraHeaders,
      ...extraHeaders,
    };
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: this.port, path: '/mcp', method: 'POST', agent: this.agent, headers, timeout: REQUEST_TIMEOUT_MS },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ res, text }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`request timed out after ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  headersFor(method, name) {
    if (this.mode === 'modern') {
      const h = { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method };
      if (name !== undefined) h['mcp-name'] = name;
      return h;
    }
    const h = { 'mcp-protocol-version': LEGACY_VERSION };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    return h;
  }

  async call(method, params = {}, name) {
    const id = this.nextId++;
    if (this.mode === 'modern') {
      params = {
        ...params,
        _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} },
      };
    }
    const { res, text } = await this.post({ jsonrpc: '2.0', id, method, params }, this.headersFor(method, name));
    return { res, msg: parseBody(res, text, id) };
  }

  async notify(method) {
    const { res } = await this.post({ jsonrpc: '2.0', method }, this.headersFor(method));
    if (res.statusCode >= 300) throw new Error(`${method} answered HTTP ${res.statusCode}`);
  }

  /** Legacy modes open with initialize (+ initialized); modern needs no handshake. */
  async open() {
    if (this.mode !== 'modern') {
      const { res, msg } = await this.post(
        {
          jsonrpc: '2.0',
          id: this.nextId++,
          method: 'initialize',
          params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'mcpkit-bench', version: '1.0.0' } },
        },
        {},
      ).then(({ res, text }) => ({ res, msg: parseBody(res, text, this.nextId - 1) }));
      if (!msg.result) throw new Error(`initialize failed: HTTP ${res.statusCode} ${JSON.stringify(msg).slice(0, 300)}`);
      if (this.mode === 'session') {
        this.sessionId = res.headers['mcp-session-id'];
        if (!this.sessionId) throw new Error('session mode: initialize returned no Mcp-Session-Id');
      }
      await this.notify('notifications/initialized');
    }
    return this;
  }

  async echo(text) {
    const { res, msg } = await this.call('tools/call', { name: 'echo', arguments: { text } }, 'echo');
    const problem = verifyEchoText(msg, text);
    if (problem) throw new Error(`HTTP ${res.statusCode}: ${problem}`);
  }

  async check() {
    await this.echo('hello');
    const { msg } = await this.call('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }, 'add');
    const problem = verifyEchoText(msg, '5');
    if (problem) throw new Error(`add: ${problem}`);
  }

  destroy() {
    this.agent.destroy();
  }
}

/**
 * `concurrency` workers issue echo calls back to back until `maxMs` elapsed or
 * `count` requests were answered. Returns { requests, ms, rps, cpuUs, p50, p99 }.
 */
export async function load(client, pid, { concurrency, maxMs, count = Infinity }) {
  let issued = 0;
  let answered = 0;
  const lat = [];
  const t0 = performance.now();
  const cpu0 = cpuMicros(pid);
  const worker = async () => {
    while (issued < count && performance.now() - t0 < maxMs) {
      const i = issued++;
      const s = performance.now();
      await client.echo(`h${i}`);
      lat.push((performance.now() - s) * 1000);
      answered++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - t0;
  const cpuUs = cpuMicros(pid) - cpu0;
  return { requests: answered, ms, rps: (answered * 1000) / ms, cpuUsPerReq: cpuUs / answered, p50: percentile(lat, 50), p99: percentile(lat, 99) };
}
