/** DNS-rebinding protection: Host and Origin allow-lists, checked before any other work. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../../src/adapters/node.js';
import { buildServer } from './fixtures.js';
import { initializeBody, rawRequest, startNode, type TestServer } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const init = JSON.stringify(initializeBody());

function send(url: string, headers: Record<string, string>, body = init) {
  return rawRequest(url, { headers: { ...base, ...headers }, body });
}

describe('default allow-list: loopback names on the bound port', () => {
  it('refuses a foreign Host and Origin with 403 and a JSON-RPC error', async () => {
    server = await startNode(buildServer().server);
    const response = await send(server.url, { host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toBe('application/json');
    const body = JSON.parse(response.body) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain('Host "evil.example.com"');
    expect(body.error.message).toContain('allowedHosts');
  });

  it('rejects before reading the body: a foreign Host with invalid JSON is 403, not 400', async () => {
    server = await startNode(buildServer().server);
    const response = await send(server.url, { host: 'evil.example.com' }, '{not json');
    expect(response.status).toBe(403);
  });

  it('refuses a loopback Host on another port, and one without a port', async () => {
    server = await startNode(buildServer().server);
    for (const host of ['localhost:1', 'localhost', '127.0.0.1:65535']) {
      expect((await send(server.url, { host })).status).toBe(403);
    }
  });

  it.each(['localhost', '127.0.0.1', '[::1]'])('accepts %s with the bound port, and its http Origin', async (name) => {
    server = await startNode(buildServer().server);
    const host = `${name}:${server.port}`;
    const response = await send(server.url, { host, origin: `http://${host}` });
    expect(response.status).toBe(200);
    const session = response.headers['mcp-session-id'] as string;
    const initialized = await send(server.url, { host, origin: `http://${host}`, 'mcp-session-id': session }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(initialized.status).toBe(202);
  });

  it('keeps a Host verdict per listening port: one handler on two ports accepts each its own port only', async () => {
    const handler = createNodeHandler(buildServer().server);
    const servers = [createServer(handler), createServer(handler)];
    try {
      const ports = await Promise.all(servers.map((s) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)))));
      const [a, b] = ports as [number, number];
      const hostA = `127.0.0.1:${a}`;
      // Accepted (and remembered) on A, then the same Host value arrives on B: refused there.
      for (let i = 0; i < 2; i++) {
        expect((await send(`http://${hostA}/mcp`, { host: hostA })).status).toBe(200);
        expect((await send(`http://127.0.0.1:${b}/mcp`, { host: hostA })).status).toBe(403);
      }
      // Many distinct made-up names (more than the verdicts kept) change nothing for the real one.
      for (let i = 0; i < 40; i++) expect((await send(`http://${hostA}/mcp`, { host: `n${i}.example:${a}` })).status).toBe(403);
      expect((await send(`http://${hostA}/mcp`, { host: hostA })).status).toBe(200);
    } finally {
      await handler.close();
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });

  it('refuses a foreign Origin with a valid Host', async () => {
    server = await startNode(buildServer().server);
    const host = `localhost:${server.port}`;
    for (const origin of ['http://evil.example.com', 'null', `http://localhost:${server.port + 1}`, 'file://']) {
      const response = await send(server.url, { host, origin });
      expect(response.status).toBe(403);
      expect(response.body).toContain('Origin');
    }
  });

  it('guards GET, DELETE and unsupported methods too', async () => {
    server = await startNode(buildServer().server);
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const response = await rawRequest(server.url, { method, headers: { host: 'evil.example.com', accept: 'text/event-stream' } });
      expect(response.status).toBe(403);
    }
  });
});

describe('options', () => {
  it('allowedHosts replaces the defaults; a name without a port allows any port', async () => {
    server = await startNode(buildServer().server, { security: { allowedHosts: ['mcp.example.com', 'fixed.example.com:8443'] } });
    expect((await send(server.url, { host: 'mcp.example.com:1234', origin: 'https://mcp.example.com' })).status).toBe(200);
    expect((await send(server.url, { host: 'fixed.example.com:8443' })).status).toBe(200);
    expect((await send(server.url, { host: 'fixed.example.com:8444' })).status).toBe(403);
    expect((await send(server.url, { host: `localhost:${server.port}` })).status).toBe(403);
  });

  it('allowedOrigins replaces the derived origins', async () => {
    server = await startNode(buildServer().server, { security: { allowedOrigins: ['https://app.example.com'] } });
    const host = `127.0.0.1:${server.port}`;
    expect((await send(server.url, { host, origin: 'https://app.example.com/' })).status).toBe(200);
    expect((await send(server.url, { host, origin: `http://${host}` })).status).toBe(403);
  });

  it('dnsRebindingProtection: false turns both checks off', async () => {
    server = await startNode(buildServer().server, { security: { dnsRebindingProtection: false } });
    expect((await send(server.url, { host: 'evil.example.com', origin: 'http://evil.example.com' })).status).toBe(200);
  });

  it('refuses a malformed allowedHosts entry at construction', async () => {
    await expect(startNode(buildServer().server, { security: { allowedHosts: ['bad host:x'] } })).rejects.toThrow(/allowedHosts/);
  });
});
