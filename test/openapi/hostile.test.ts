/**
 * Hostile documents: each is refused with an OpenApiError that says what and where, or bounded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, OpenApiError, openApiTools } from '../../src/openapi.js';

type Json = Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'openapi-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const doc = (schema: unknown, extra: Json = {}): Json => ({
  openapi: '3.1.0',
  info: { title: 'h', version: '1' },
  paths: { '/x': { post: { operationId: 'x', requestBody: { content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } } } },
  ...extra,
});
const tools = async (d: Json) => openApiTools(await loadOpenApiDocument(d), { baseUrl: 'http://127.0.0.1:1' });

describe('hostile OpenAPI documents', () => {
  it('keeps circular and mutually recursive schemas as $defs references', async () => {
    const [tool] = await tools(
      doc({ $ref: '#/components/schemas/A' }, { components: { schemas: { A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } }, B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } } } } }),
    );
    expect(tool!.inputSchema).toMatchObject({ properties: { b: { $ref: '#/$defs/B' } }, $defs: { A: { properties: { b: { $ref: '#/$defs/B' } } }, B: { properties: { a: { $ref: '#/$defs/A' } } } } });
  });

  it('refuses a self-referencing $ref chain and a dangling $ref, naming where', async () => {
    const loop = { openapi: '3.0.3', info: { title: 'h', version: '1' }, paths: { '/x': { $ref: '#/paths/~1x' } } };
    await expect(tools(loop)).rejects.toThrow(/reference cycle/);
    await expect(tools(doc({ $ref: '#/components/schemas/Nope' }))).rejects.toThrow(/points to nothing in the document \(at #\/paths\/~1x\/post\/requestBody/);
  });

  it('refuses a $ref to a file or to another host', async () => {
    for (const ref of ['/etc/passwd', 'file:///etc/passwd#/x', 'http://169.254.169.254/latest/meta-data#/', 'other.yaml#/components/schemas/A']) {
      const error = await tools(doc({ $ref: ref })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenApiError);
      expect((error as Error).message).toMatch(/points outside the document.*external references are refused/);
    }
  });

  it('refuses a 50 MB document as text, as a file and from a URL, before parsing it', async () => {
    const big = `{"openapi":"3.1.0","info":{"title":"big","version":"1"},"x-pad":"${'a'.repeat(50 * 1024 * 1024)}"}`;
    await expect(loadOpenApiDocument(big)).rejects.toThrow(/more than maxDocumentBytes \(33,554,432 bytes\)/);
    const file = join(dir, 'big.json');
    writeFileSync(file, big);
    await expect(loadOpenApiDocument(file)).rejects.toThrow(/52,428,8\d\d bytes, more than maxDocumentBytes/);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // no content-length: the limit applies while reading
      res.write(big.slice(0, 40 * 1024 * 1024));
      res.end(big.slice(40 * 1024 * 1024));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
      await expect(loadOpenApiDocument(url)).rejects.toThrow(/more than maxDocumentBytes/);
      await expect(loadOpenApiDocument(url, { maxDocumentBytes: 1024 })).rejects.toThrow(/maxDocumentBytes \(1,024 bytes\)/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);

  it('never sends a request to the document servers, an operation server or a redirect elsewhere', async () => {
    const seen: string[] = [];
    const d = doc({ type: 'object' }, { servers: [{ url: 'http://169.254.169.254' }] });
    const [tool] = openApiTools(await loadOpenApiDocument(d), {
      baseUrl: 'http://127.0.0.1:9/api',
      fetch: async (input) => {
        seen.push(input instanceof URL ? input.href : typeof input === 'string' ? input : input.url);
        return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/' } });
      },
    });
    const result = await tool!.call({});
    expect(seen).toEqual(['http://127.0.0.1:9/api/x']);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/redirected to another origin \(http:\/\/169.254.169.254\)/);
  });

  it('refuses Swagger 2.0, non-3.x documents, YAML alias bombs and absurd nesting', async () => {
    await expect(loadOpenApiDocument({ swagger: '2.0', info: {}, paths: {} })).rejects.toThrow(/Swagger 2\.0 document; mcpkit\/openapi reads OpenAPI 3\.0 and 3\.1\. Convert it first/);
    await expect(loadOpenApiDocument({ openapi: '4.0.0' })).rejects.toThrow(/not an OpenAPI 3\.x document/);
    const bomb = ['openapi: 3.1.0', 'a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n');
    await expect(loadOpenApiDocument(bomb)).rejects.toThrow(/neither valid JSON nor valid YAML/);
    let deep: Json = { type: 'string' };
    for (let i = 0; i < 500; i++) deep = { type: 'array', items: deep };
    await expect(tools(doc(deep))).rejects.toThrow(/nested more than 128 levels/);
  });

  it('names a misspelt option and a missing baseUrl precisely', async () => {
    const loaded = await loadOpenApiDocument(doc({ type: 'object' }));
    expect(() => openApiTools(loaded, { baseUrl: 'http://127.0.0.1', timeoutMS: 5 } as never)).toThrow(/unknown option `timeoutMS`.*did you mean `timeoutMs`/);
    expect(() => openApiTools(loaded, {} as never)).toThrow(/baseUrl is required/);
    expect(() => openApiTools(loaded, { baseUrl: 'http://127.0.0.1', credentials: { api: 'k' } })).toThrow(/declares no security scheme "api"/);
  });
});
