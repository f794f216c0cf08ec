/** The `auth` option on every HTTP adapter: validated at start, served by each, never on stdio, and jose never loaded by the root entry. */
import express from 'express';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jwtVerifier } from '../../src/auth.js';
import { mountMcpHttp } from '../../src/express.js';
import { createNodeHandler, listen } from '../../src/http.js';
import { connected } from '../protocol/support.js';
import { startFetch, type TestServer } from '../transports/http/support.js';
import { startAuthServer, type TestAuthServer } from './as.js';
import { bearer, challengeParams, document, initializeBody, post, protectedServer } from './support.js';

let as: TestAuthServer | undefined;
let closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
  await as?.close();
  as = undefined;
});

const verify = jwtVerifier();

describe('refusing to start', () => {
  it('refuses a resource that does not name the served endpoint', async () => {
    const auth = { authorizationServers: ['https://auth.example.com'], verify };
    await expect(listen(protectedServer(), { auth: { ...auth, resource: 'http://127.0.0.1:1/mcp' } })).rejects.toThrow(/names port 1, but the server listens on/);
    await expect(listen(protectedServer(), { auth: { ...auth, resource: 'https://mcp.example.com/other' } })).rejects.toThrow(/does not match the served endpoint path "\/mcp"/);
    expect(() => createNodeHandler(protectedServer(), { path: '/mcp', auth: { ...auth, resource: 'https://mcp.example.com/api' } })).toThrow(/does not match/);
    expect(() => mountMcpHttp(express(), protectedServer(), { auth: { ...auth, resource: 'https://mcp.example.com/api' } })).toThrow(/does not end with the mounted path/);
  });

  it('refuses resources that cannot be canonical, and incomplete options', () => {
    const make = (auth: object) => () => createNodeHandler(protectedServer(), { path: '/mcp', auth: { authorizationServers: ['https://a.example'], verify, ...auth } });
    expect(make({ resource: 'mcp.example.com/mcp' })).toThrow(/not an absolute URL/);
    expect(make({ resource: 'http://mcp.example.com/mcp' })).toThrow(/must use https/);
    expect(make({ resource: 'https://mcp.example.com/mcp#x' })).toThrow(/fragment/);
    expect(make({ resource: 'https://mcp.example.com/mcp?tenant=1' })).toThrow(/query string/);
    expect(make({})).toThrow(/auth.resource is required/);
    expect(make({ resource: 'https://mcp.example.com/mcp', authorizationServers: [] })).toThrow(/at least one authorization server/);
    expect(() => createNodeHandler(protectedServer(), { auth: { resource: 'https://m.example/mcp', authorizationServers: ['https://a.example'], verify }, authenticate: () => undefined } as never)).toThrow(/not both/);
  });

  it('accepts a resource with upper-case scheme and host or a trailing slash, and serves it canonically', async () => {
    as = await startAuthServer();
    const probe = await listen(protectedServer(), {});
    const port = probe.port;
    await probe.close();
    const mcp = await listen(protectedServer(), { port, auth: { resource: `HTTP://LOCALHOST:${port}/mcp/`, authorizationServers: [as.issuer], verify } });
    closers.push(() => mcp.close());
    const metadata = await document(await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`));
    expect(metadata.resource).toBe(`http://localhost:${port}/mcp`);
  });
});

describe('every adapter', () => {
  it('the fetch adapter serves metadata and challenges', async () => {
    as = await startAuthServer();
    const handlerServer = await startFetchOn(as);
    closers.push(() => handlerServer.close());
    const url = handlerServer.url;
    const denied = await post(url, initializeBody());
    expect(denied.status).toBe(401);
    const { resource_metadata: metadataUrl } = challengeParams(denied.headers.get('www-authenticate'));
    expect((await document(await fetch(metadataUrl!))).resource).toBe(url);
    const ok = await post(url, initializeBody(), bearer(await as.token({ aud: url })));
    expect(ok.status).toBe(200);
  });

  it('mountMcpHttp serves the metadata routes beside the endpoint', async () => {
    as = await startAuthServer();
    const app = express();
    const httpServer: Server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => httpServer.once('listening', () => resolve()));
    closers.push(async () => {
      httpServer.closeAllConnections();
      await new Promise((r) => httpServer.close(r));
    });
    const base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    mountMcpHttp(app, protectedServer(), { path: '/api/mcp', auth: { resource: `${base}/api/mcp`, authorizationServers: [as.issuer], verify } });
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect((await document(response)).resource).toBe(`${base}/api/mcp`);
    }
    const denied = await post(`${base}/api/mcp`, initializeBody());
    expect(denied.status).toBe(401);
    const ok = await post(`${base}/api/mcp`, initializeBody(), bearer(await as.token({ aud: `${base}/api/mcp` })));
    expect(ok.status).toBe(200);
  });
});

/** The fetch adapter on a port chosen first, so the resource can name it. */
async function startFetchOn(server: TestAuthServer): Promise<TestServer> {
  // The resource URL names the port, so the port is chosen first (a free one, from a probe) and asked for;
  // listening on 0 again and hoping for the same port could loop for ever.
  for (;;) {
    const probe = await startFetch(protectedServer());
    const port = probe.port;
    await probe.close();
    try {
      return await startFetch(protectedServer(), { auth: { resource: `http://127.0.0.1:${port}/mcp`, authorizationServers: [server.issuer], verify } }, port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}

describe('stdio', () => {
  it('is never subject to scopes: a scoped tool answers over an in-process connection without any token', async () => {
    const c = await connected(protectedServer());
    const result = await c.request('tools/call', { name: 'write_file', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'written' }] });
  });
});

describe('the root entry', () => {
  it('never imports jose, directly or through any module it loads', () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const specifier = match[1]!;
        expect(specifier, `${file} imports ${specifier}`).not.toMatch(/^jose(\/|$)/);
        if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      }
    };
    visit(resolve(import.meta.dirname, '../../src/index.ts'));
    for (const entry of ['http.ts', 'express.ts', 'stdio.ts']) visit(resolve(import.meta.dirname, '../../src', entry));
    expect(seen.size).toBeGreaterThan(20);
    expect([...seen].some((f) => f.endsWith('auth/jwt.ts'))).toBe(false);
  });
});
