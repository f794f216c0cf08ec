/**
 * The route map over the wire: with `routes: "resources"`, the Petstore's GETs without parameters
 * are resources and its GETs with only path parameters resource templates, read by mcpkit/client
 * and the official SDK v2 client over Streamable HTTP; everything else stays a tool.
 */
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, StreamableHttpTransport } from '../../src/client.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { addOpenApiTools, loadOpenApiDocument, OpenApiError, openApiProvider, openApiRoutes } from '../../src/openapi.js';
import { McpServer } from '../../src/server/server.js';
import { PNG, petstore, startBackend, type Backend } from './petstore.js';

let backend: Backend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(() => backend.close());

describe('routes: "resources" served by addOpenApiTools', () => {
  let listener: McpHttpListener;
  let client: Client;

  beforeAll(async () => {
    const server = new McpServer({ name: 'petstore', version: '1.0.0' });
    await addOpenApiTools(server, petstore('3.1'), { baseUrl: backend.url, routes: 'resources', maxResponseBytes: 16 * 1024, credentials: { apiKey: 'key-123' } });
    listener = await listen(server, { port: 0, host: '127.0.0.1' });
    client = new Client();
    await client.connect(new StreamableHttpTransport(listener.url));
  });
  afterAll(async () => {
    await client.close();
    await listener.close();
  });

  it('lists GETs without parameters as resources and GETs with only path parameters as templates; the rest stay tools', async () => {
    const resources = (await client.listResources()).resources;
    expect(resources.map((r) => [r.name, r.uri, r.mimeType])).toEqual([
      ['big', `${backend.url}/big`, 'text/plain'],
      ['slow', `${backend.url}/slow`, 'text/plain'],
      ['count', `${backend.url}/count`, 'application/json'],
    ]);
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    expect(templates.map((t) => [t['name'], t.uriTemplate, t['mimeType']])).toEqual([
      ['getPhoto', `${backend.url}/pets/{petId}/photo`, 'image/png'],
      ['files_get_by_name', `${backend.url}/files/{name}`, 'application/octet-stream'],
    ]);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('getPet'); // a query parameter too: a tool
    expect(tools).toContain('listPets');
    expect(tools).toContain('get_labels_labels_point'); // label-style path parameters: a tool
    expect(tools).not.toContain('count');
    expect(tools).not.toContain('getPhoto');
  });

  it('reads a resource and a template through the API, path values encoded, credentials applied', async () => {
    const count = await client.readResource(`${backend.url}/count`);
    expect(count.contents).toEqual([{ uri: `${backend.url}/count`, mimeType: 'application/json', text: '42' }]);
    const photo = await client.readResource(`${backend.url}/pets/5/photo`);
    expect(photo.contents).toEqual([{ uri: `${backend.url}/pets/5/photo`, mimeType: 'image/png', blob: PNG.toString('base64') }]);
    expect(backend.requests.at(-1)!.url).toBe('/api/pets/5/photo');
    expect(backend.requests.at(-1)!.headers['x-api-key']).toBe('key-123');
    const file = await client.readResource(`${backend.url}/files/a%20b`);
    expect(file.contents[0]).toMatchObject({ mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 255]).toString('base64') });
    expect(backend.requests.at(-1)!.url).toBe('/api/files/a%20b');
  });

  it('answers a read the API cannot serve with an error, not a crash', async () => {
    const big = await client.readResource(`${backend.url}/big`).catch((e: unknown) => e);
    expect(big).toBeInstanceOf(Error);
    const dots = await client.readResource(`${backend.url}/files/..`).catch((e: unknown) => e);
    expect(dots).toBeInstanceOf(Error);
    expect(backend.requests.at(-1)!.url).not.toContain('..');
    // The server is still serving.
    expect((await client.readResource(`${backend.url}/count`)).contents).toHaveLength(1);
  });

  it('serves the official SDK v2 client too', async () => {
    const v2 = new ClientV2({ name: 'v2', version: '2.0.0' });
    await v2.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    try {
      expect((await v2.listResourceTemplates()).resourceTemplates).toHaveLength(2);
      const read = await v2.readResource({ uri: `${backend.url}/pets/9/photo` });
      expect(read.contents[0]).toMatchObject({ mimeType: 'image/png', blob: PNG.toString('base64') });
    } finally {
      await v2.close();
    }
  });
});

describe('routes as a provider and as a function', () => {
  it('serves resources and templates through openApiProvider, mounted under a namespace', async () => {
    const provider = await openApiProvider(petstore('3.0'), { baseUrl: backend.url, routes: 'resources', include: { operations: ['count', 'getPhoto', 'getPet'] } });
    const server = new McpServer({ name: 'gateway', version: '1.0.0' });
    server.provide(provider);
    const client = new Client();
    await client.connect(new InMemoryTransport(server));
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([`${backend.url}/count`]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([`${backend.url}/pets/{petId}/photo`]);
    expect((await client.readResource(`${backend.url}/count`)).contents).toEqual([{ uri: `${backend.url}/count`, mimeType: 'application/json', text: '42' }]);
    expect((await client.readResource(`${backend.url}/pets/3/photo`)).contents[0]).toMatchObject({ blob: PNG.toString('base64') });
    expect(backend.requests.at(-1)!.url).toBe('/api/pets/3/photo');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getPet']);
    await client.close();
  });

  it('lets a function keep an operation a tool, and refuses one that makes a resource of an operation with arguments', async () => {
    const doc = await loadOpenApiDocument(petstore('3.1'));
    const routes = openApiRoutes(doc, { baseUrl: backend.url, routes: (op, suggested) => (op.operationId === 'count' ? 'tool' : suggested) });
    expect(routes.resources.map((r) => r.name)).toEqual(['big', 'slow']);
    expect(routes.tools.map((t) => t.name)).toContain('count');
    expect(() => openApiRoutes(doc, { baseUrl: backend.url, routes: (op) => (op.operationId === 'listPets' ? 'resource' : 'tool') })).toThrow(OpenApiError);
    expect(() => openApiRoutes(doc, { baseUrl: backend.url, routes: (op) => (op.operationId === 'listPets' ? 'resource' : 'tool') })).toThrow(/"listPets" \(GET \/pets\) cannot be a resource; it can be only a tool/);
    expect(() => openApiRoutes(doc, { baseUrl: backend.url, routes: 'resource' as never })).toThrow(/routes must be "tools", "resources" or a function/);
  });
});
