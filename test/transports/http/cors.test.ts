import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http, because fetch() will not send a chosen Origin or Host. */
function send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: url.port, path: url.pathname, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1' } } });
const postHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let listener: McpHttpListener | undefined;
afterEach(async () => {
  await listener?.close({ graceMs: 0 });
  listener = undefined;
});

async function start(options: Parameters<typeof listen>[1]): Promise<URL> {
  const server = new McpServer({ name: 'cors', version: '1.0.0' });
  server.tool('t', {}, () => 't');
  listener = await listen(server, options);
  return new URL(listener.url);
}

describe('CORS (opt-in)', () => {
  it('is off by default: a preflight gets 405 and answers carry no CORS headers', async () => {
    const url = await start({ port: 0 });
    const origin = `http://localhost:${url.port}`;
    const preflight = await send(url, 'OPTIONS', { host: `localhost:${url.port}`, origin, 'access-control-request-method': 'POST' });
    expect(preflight.status).toBe(405);
    const post = await send(url, 'POST', { ...postHeaders, host: `localhost:${url.port}`, origin }, initialize);
    expect(post.status).toBe(200);
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers preflights from allowed origins and lets the page read the session id', async () => {
    const url = await start({ port: 0, security: { cors: { maxAgeSeconds: 60 } } });
    const host = `localhost:${url.port}`;
    const origin = `http://${host}`;
    const preflight = await send(url, 'OPTIONS', {
      host,
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-param-region',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST, DELETE');
    expect(preflight.headers['access-control-allow-headers']).toBe(
      'content-type, accept, authorization, last-event-id, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region',
    );
    expect(preflight.headers['access-control-max-age']).toBe('60');
    const post = await send(url, 'POST', { ...postHeaders, host, origin }, initialize);
    expect(post.status).toBe(200);
    expect(post.headers['access-control-allow-origin']).toBe(origin);
    expect(post.headers['access-control-expose-headers']).toBe('mcp-session-id, mcp-protocol-version, www-authenticate');
    expect(typeof post.headers['mcp-session-id']).toBe('string');
  });

  it('never widens who may call: a foreign origin still gets 403 without CORS headers', async () => {
    const url = await start({ port: 0, security: { cors: true } });
    const host = `localhost:${url.port}`;
    for (const method of ['OPTIONS', 'POST']) {
      const answer = await send(url, method, { ...postHeaders, host, origin: 'http://evil.example.com' }, method === 'POST' ? initialize : undefined);
      expect(answer.status).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('grants the configured allowedOrigins', async () => {
    const url = await start({ port: 0, security: { cors: true, allowedOrigins: ['https://app.example.com'] } });
    const host = `localhost:${url.port}`;
    const post = await send(url, 'POST', { ...postHeaders, host, origin: 'https://app.example.com' }, initialize);
    expect(post.status).toBe(200);
    expect(post.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });
});
