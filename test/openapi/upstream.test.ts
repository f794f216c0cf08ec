/**
 * What the provider does toward the upstream API beyond one request: its own OAuth client
 * credentials against a real token endpoint (oidc-provider), the response headers it surfaces,
 * and the per-request timeout. Served over Streamable HTTP on 127.0.0.1 to mcpkit/client.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { addOpenApiTools, loadOpenApiDocument, OPENAPI_RESPONSE_META, OpenApiError, openApiTools } from '../../src/openapi.js';
import { McpServer } from '../../src/server/server.js';
import { startTokenServer } from './oauth-server.js';

type Json = Record<string, unknown>;

interface Api {
  url: string;
  /** Authorization headers the API saw, in order. */
  authorizations: (string | undefined)[];
  /** Answer the next /pets request with 401 (the token was revoked). */
  revokeOnce(): void;
  slowAborted(): Promise<void>;
  close(): Promise<void>;
}

/** The API: /pets needs a JWT from the token server for its resource; /slow never answers. */
async function startApi(jwksUrl: string, issuer: string, resource: () => string): Promise<Api> {
  const jwks = createRemoteJWKSet(new URL(jwksUrl));
  const authorizations: (string | undefined)[] = [];
  let revoke = false;
  const aborted: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://api').pathname;
      if (path === '/slow') {
        res.on('close', () => aborted.shift()?.());
        return;
      }
      authorizations.push(req.headers.authorization);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      try {
        if (token === undefined || revoke) throw new Error('no');
        await jwtVerify(token, jwks, { issuer, audience: resource() });
      } catch {
        revoke = false;
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end('{"message":"bad token"}');
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        link: '<https://api.example/pets?page=2>; rel="next"',
        'x-ratelimit-remaining': '41',
        'set-cookie': 'session=secret',
        etag: `"${'e'.repeat(5000)}"`,
      }).end(JSON.stringify([{ id: 1, name: 'Rex' }]));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authorizations,
    revokeOnce: () => (revoke = true),
    slowAborted: () => new Promise((resolve) => aborted.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function document(tokenUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'pets', version: '1' },
    components: { securitySchemes: { petsAuth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: { 'pets:read': 'read pets' } } } } } },
    security: [{ petsAuth: ['pets:read'] }],
    paths: {
      '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'pets', content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } } } } } },
      '/slow': { get: { operationId: 'slow', security: [], responses: { 200: { description: 'never' } } } },
    },
  };
}

describe('upstream client credentials, response headers, timeout', () => {
  let tokens: Awaited<ReturnType<typeof startTokenServer>>;
  let api: Api;
  let listener: McpHttpListener;
  let client: Client;
  let apiUrl = '';

  beforeAll(async () => {
    tokens = await startTokenServer({ clientId: 'mcp-gateway', clientSecret: 'upstream-secret', resource: 'urn:pets-api', scopes: ['pets:read'] });
    api = await startApi(`${tokens.issuer}/jwks`, tokens.issuer, () => 'urn:pets-api');
    apiUrl = api.url;
    const server = new McpServer({ name: 'pets', version: '1' });
    await addOpenApiTools(server, document(tokens.tokenUrl), {
      baseUrl: apiUrl,
      credentials: { petsAuth: { clientId: 'mcp-gateway', clientSecret: () => 'upstream-secret', tokenUrl: tokens.tokenUrl, scopes: ['pets:read'] } },
      timeoutMs: 2000,
    });
    listener = await listen(server, { port: 0, host: '127.0.0.1' });
    client = new Client();
    // The MCP client's own token: the API must never see it.
    await client.connect(new StreamableHttpTransport(listener.url, { token: 'mcp-client-token' }));
  });

  afterAll(async () => {
    await client.close();
    await listener.close();
    await api.close();
    await tokens.close();
  });

  it('obtains the API token with its own client credentials, reuses it, and asks again after a 401', async () => {
    const first = await client.callTool('listPets', {});
    expect(first.isError).not.toBe(true);
    expect(first.structuredContent).toEqual({ result: [{ id: 1, name: 'Rex' }] });
    const second = await client.callTool('listPets', {});
    expect(second.isError).not.toBe(true);
    expect(tokens.grants).toBe(1);
    expect(api.authorizations[0]).toMatch(/^Bearer ey/);
    expect(api.authorizations[1]).toBe(api.authorizations[0]);
    expect(api.authorizations).not.toContain('Bearer mcp-client-token');

    api.revokeOnce();
    const refused = await client.callTool('listPets', {});
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(/^HTTP 401/);
    const again = await client.callTool('listPets', {});
    expect(again.isError).not.toBe(true);
    expect(tokens.grants).toBe(2);
  });

  it('surfaces the status and the listed response headers, bounded, under _meta', async () => {
    const result = await client.callTool('listPets', {});
    const meta = (result._meta as Json)[OPENAPI_RESPONSE_META] as { status: number; headers: Record<string, string> };
    expect(meta.status).toBe(200);
    expect(meta.headers['link']).toBe('<https://api.example/pets?page=2>; rel="next"');
    expect(meta.headers['x-ratelimit-remaining']).toBe('41');
    expect(meta.headers['content-type']).toBe('application/json');
    expect(meta.headers['set-cookie']).toBeUndefined();
    expect(meta.headers['etag']!.length).toBe(2049); // cut at 2048 characters, marked with …
    expect(meta.headers['etag']!.endsWith('…')).toBe(true);
  });

  it('ends a request the API does not answer within timeoutMs, and aborts it', async () => {
    const aborted = api.slowAborted();
    const result = await client.callTool('slow', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/timed out|did not answer|timeout/i);
    await aborted;
  });

  it('times out on its own when called without a server', async () => {
    const doc = await loadOpenApiDocument(document(tokens.tokenUrl));
    const slow = openApiTools(doc, { baseUrl: apiUrl, timeoutMs: 200 }).find((t) => t.name === 'slow')!;
    const aborted = api.slowAborted();
    const result = await slow.call({});
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe('the API did not answer within 200 ms');
    await aborted;
  });

  it('refuses client credentials whose token endpoint the document alone chose on another origin, and misspelt keys', async () => {
    const doc = await loadOpenApiDocument(document(tokens.tokenUrl));
    const credentials = { petsAuth: { clientId: 'mcp-gateway', clientSecret: 'upstream-secret' } };
    expect(() => openApiTools(doc, { baseUrl: apiUrl, credentials })).toThrow(OpenApiError);
    expect(() => openApiTools(doc, { baseUrl: apiUrl, credentials })).toThrow(/tokenUrl is on http:\/\/127\.0\.0\.1:\d+, not the API's origin .*give tokenUrl/);
    expect(() => openApiTools(doc, { baseUrl: apiUrl, credentials: { petsAuth: { ...credentials.petsAuth, tokenUrl: tokens.tokenUrl, scope: ['x'] } } as never })).toThrow(/scope.*did you mean `scopes`/);
    expect(() => openApiTools(doc, { baseUrl: apiUrl, responseHeaders: ['bad header'] })).toThrow(/not a header name/);
    // Fixed headers are checked as Headers would check them, with errors that name the header.
    expect(() => openApiTools(doc, { baseUrl: apiUrl, headers: { 'bad header': 'x' } })).toThrow(/headers: "bad header" is not a header name/);
    expect(() => openApiTools(doc, { baseUrl: apiUrl, headers: { 'x-a': 'one\r\nx-b: two' } })).toThrow(/headers\["x-a"\] must be a string without CR, LF or NUL/);
    expect(() => openApiTools(doc, { baseUrl: apiUrl, headers: { 'x-a': 1 } as never })).toThrow(OpenApiError);
  });

  it('reports a refused client secret as an error result naming the token endpoint, not the secret', async () => {
    const doc = await loadOpenApiDocument(document(tokens.tokenUrl));
    const tool = openApiTools(doc, { baseUrl: apiUrl, credentials: { petsAuth: { clientId: 'mcp-gateway', clientSecret: 'wrong-secret', tokenUrl: tokens.tokenUrl } } }).find((t) => t.name === 'listPets')!;
    const result = await tool.call({});
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/token endpoint .*refused the client_credentials grant \(HTTP 401, invalid_client\)/);
    expect(text).not.toContain('wrong-secret');
  });
});
