/**
 * The Petstore documents (3.0 as YAML, 3.1 as JSON) served end to end: mcpkit/openapi derives
 * the tools, an McpServer serves them over Streamable HTTP on 127.0.0.1, mcpkit/client and the
 * official SDK v2 client call them, and the backend written for the test records the exact
 * HTTP requests that arrive.
 */
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { addOpenApiTools, type OpenApiTool } from '../../src/openapi.js';
import { McpServer } from '../../src/server/server.js';
import { PNG, petstore, startBackend, type Backend } from './petstore.js';

type Json = Record<string, unknown>;

describe.each(['3.0', '3.1'] as const)('Petstore %s end to end', (version) => {
  let backend: Backend;
  let listener: McpHttpListener;
  let tools: OpenApiTool[];
  let client: Client;

  beforeAll(async () => {
    backend = await startBackend();
    const server = new McpServer({ name: 'petstore', version: '1.0.0' });
    const doc = petstore(version);
    tools = await addOpenApiTools(server, version === '3.0' ? stringify(doc) : doc, {
      baseUrl: backend.url,
      credentials: { apiKey: 'key-123', bearer: () => 'upstream-token', basic: { username: 'admin', password: 'pässword' } },
      headers: { 'User-Agent': ' petstore-test\t' }, // names folded and values trimmed, as Headers does
      maxResponseBytes: 16 * 1024,
    });
    listener = await listen(server, { port: 0, host: '127.0.0.1' });
    client = new Client();
    // The MCP client's own token: it must never reach the API.
    await client.connect(new StreamableHttpTransport(listener.url, { token: 'mcp-client-token' }));
  });

  afterAll(async () => {
    await client.close();
    await listener.close();
    await backend.close();
  });

  const last = () => backend.requests.at(-1)!;
  const call = (name: string, args: Json) => client.callTool(name, args);

  it('derives one tool per operation, named from operationId (else method and path), schemas valid JSON Schema 2020-12', async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual([
      'listPets', 'createPet', 'getPet', 'deletePet', 'getPhoto', 'putPhoto', 'addVaccination', 'uploadDocument',
      'get_labels_labels_point', 'files_get_by_name', 'redirect', 'big', 'slow', 'count',
    ]);
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const tool of listed.tools) {
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name} input`).toBe(true);
      ajv.compile(tool.inputSchema);
      if (tool.outputSchema !== undefined) ajv.compile(tool.outputSchema);
    }
    const byName = new Map(listed.tools.map((t) => [t.name, t as unknown as Json]));
    const listPets = byName.get('listPets')!;
    expect(listPets['annotations']).toMatchObject({ readOnlyHint: true });
    expect(Object.keys((listPets['inputSchema'] as { properties: Json }).properties)).toEqual(['limit', 'tags', 'sort', 'ids', 'words', 'filter', 'q', 'X-Request-Id', 'session']);
    expect((listPets['inputSchema'] as { properties: Json }).properties['limit']).toEqual({ type: 'integer', exclusiveMaximum: 100 });
    // A non-object response is wrapped once, under "result".
    expect((listPets['outputSchema'] as Json)['properties']).toEqual({ result: { type: 'array', items: { $ref: '#/$defs/Pet' } } });
    const pet = ((listPets['outputSchema'] as Json)['$defs'] as Json)['Pet'] as Json;
    expect((pet['properties'] as Json)['parent']).toEqual({ $ref: '#/$defs/Pet' }); // circular, kept as a reference
    expect((pet['properties'] as Json)['tag']).toEqual({ type: ['string', 'null'] });
    expect(pet['xml']).toBeUndefined();
    // Path parameter keeps its name; the query parameter of the same name takes its location.
    expect((byName.get('getPet')!['inputSchema'] as Json)['required']).toEqual(['petId']);
    expect(Object.keys((byName.get('getPet')!['inputSchema'] as { properties: Json }).properties)).toEqual(['petId', 'petId__query']);
    // A JSON object body is flattened; readOnly properties are not arguments.
    const create = byName.get('createPet')!['inputSchema'] as { properties: Json; required: string[] };
    expect(Object.keys(create.properties)).toEqual(['name', 'tag', 'age']);
    expect(create.required).toEqual(['name']);
    expect(create.properties['age']).toEqual({ type: 'integer', exclusiveMinimum: 0 });
    expect(byName.get('deletePet')!['annotations']).toMatchObject({ destructiveHint: true, idempotentHint: true });
  });

  it('builds the query, header and cookie exactly, to the base URL only, with the API key and never the MCP token', async () => {
    const result = await call('listPets', {
      limit: 5, tags: ['a b', 'c'], sort: ['name', '-age'], ids: [1, 2], words: ['x', 'y'], filter: { color: 'red/blue' }, q: 'ä&=', 'X-Request-Id': 'r-1', session: 's 1',
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ result: [{ id: 1, name: 'Rex', tag: null }] });
    const r = last();
    expect(r.url).toBe('/api/pets?limit=5&tags=a%20b&tags=c&sort=name,-age&ids=1|2&words=x%20y&filter%5Bcolor%5D=red%2Fblue&q=%C3%A4%26%3D');
    expect(r.headers['x-request-id']).toBe('r-1');
    expect(r.headers['cookie']).toBe('session=s%201');
    expect(r.headers['x-api-key']).toBe('key-123');
    expect(r.headers['user-agent']).toBe('petstore-test');
    expect(JSON.stringify(backend.requests.map((q) => q.headers))).not.toContain('mcp-client-token');
  });

  it('sends a flattened JSON body with the bearer credential; 4xx is isError with the status and body', async () => {
    const created = await call('createPet', { name: 'Tom', tag: null, age: 3 });
    expect(created.structuredContent).toMatchObject({ id: 7, name: 'Tom' });
    expect(last().headers['authorization']).toBe('Bearer upstream-token');
    expect(last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(last().body.toString())).toEqual({ name: 'Tom', tag: null, age: 3 });
    const refused = await call('createPet', { name: 'invalid' });
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(/^HTTP 422 Unprocessable Entity: .*name refused/);
    const missing = await call('getPet', { petId: 404 });
    expect(missing.isError).toBe(true);
    expect((missing.content[0] as { text: string }).text).toContain('HTTP 404');
  });

  it('refuses invalid arguments before any request', async () => {
    const before = backend.requests.length;
    const result = await call('listPets', { limit: 100 }).catch((e: unknown) => e);
    expect(JSON.stringify(result)).toMatch(/limit/);
    const unknown = await call('listPets', { limt: 1 }).catch((e: unknown) => e);
    expect(JSON.stringify(unknown)).toMatch(/limt/);
    expect(backend.requests.length).toBe(before);
  });

  it('encodes path parameters (simple, label, matrix) and refuses dot segments', async () => {
    await call('getPet', { petId: 12, petId__query: 'q' });
    expect(last().url).toBe('/api/pets/12?petId=q');
    const labels = await call('get_labels_labels_point', { labels: ['a', 'b c'], point: { x: 1, y: 2 } });
    expect((labels.content[0] as { text: string }).text).toBe('/api/labels/.a,b%20c/;x=1;y=2');
    await call('files_get_by_name', { name: 'a/b?c' });
    expect(last().url).toBe('/api/files/a%2Fb%3Fc');
    const dots = await call('files_get_by_name', { name: '..' });
    expect(dots.isError).toBe(true);
    expect((dots.content[0] as { text: string }).text).toMatch(/may not be "\." or "\.\."/);
  });

  it('sends basic credentials, form and multipart bodies, and binary in both directions', async () => {
    await call('deletePet', { petId: 3 });
    expect(last().method).toBe('DELETE');
    expect(last().headers['authorization']).toBe(`Basic ${Buffer.from('admin:pässword').toString('base64')}`);
    const form = await call('addVaccination', { petId: 3, vaccine: 'rabies & co', doses: [1, 2] });
    expect((form.content[0] as { text: string }).text).toBe('got vaccine=rabies%20%26%20co&doses=1&doses=2');
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    const bytes = Buffer.from([1, 2, 3, 250]);
    await call('putPhoto', { petId: 3, body: bytes.toString('base64') });
    expect(last().headers['content-type']).toBe('application/octet-stream');
    expect(last().body.equals(bytes)).toBe(true);
    const uploaded = await call('uploadDocument', { title: 't', file: bytes.toString('base64'), meta: { a: 1 } });
    expect(uploaded.structuredContent).toEqual({ received: 'multipart/form-data' });
    expect(last().body.includes(bytes)).toBe(true);
    expect(last().body.toString()).toContain('{"a":1}');
    const photo = await call('getPhoto', { petId: 3 });
    expect(photo.content[0]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') });
    const raw = await call('files_get_by_name', { name: 'x' });
    expect(raw.content[0]).toMatchObject({ type: 'resource', resource: { mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 255]).toString('base64') } });
  });

  it('follows same-origin redirects only, bounds the response, wraps a non-object JSON answer', async () => {
    const same = await call('redirect', { to: `${backend.url}/count` });
    expect(same.isError).toBe(true); // a number where the document promises an object
    const away = await call('redirect', { to: 'http://169.254.169.254/latest/meta-data' });
    expect(away.isError).toBe(true);
    expect((away.content[0] as { text: string }).text).toMatch(/redirected to another origin/);
    const big = await call('big', {});
    expect(big.isError).toBe(true);
    expect((big.content[0] as { text: string }).text).toMatch(/larger than maxResponseBytes/);
    expect((await call('count', {})).structuredContent).toEqual({ result: 42 });
    expect(tools.find((t) => t.name === 'count')!.outputSchema).toEqual({ type: 'object', properties: { result: { type: 'integer' } }, required: ['result'] });
  });

  it('aborts the HTTP request when the MCP call is cancelled', async () => {
    const controller = new AbortController();
    const pending = client.callTool('slow', {}, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await pending;
    await backend.slowAborted;
  });

  it('serves the official SDK v2 client too', async () => {
    const v2 = new ClientV2({ name: 'v2', version: '2.0.0' });
    await v2.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    try {
      const listed = await v2.listTools();
      expect(listed.tools.length).toBe(14);
      const result = await v2.callTool({ name: 'getPet', arguments: { petId: 5 } });
      expect(result.structuredContent).toEqual({ id: 5, name: 'Rex', tag: 'dog' });
    } finally {
      await v2.close();
    }
  });
});
