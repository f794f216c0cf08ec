/**
 * GitHub's REST API description (@octokit/openapi: OpenAPI 3.0.3, 1,223 operations, deep $ref
 * chains, nullable everywhere), a document nobody here wrote: it loads, every derived schema is
 * valid JSON Schema 2020-12 and compiles in mcpkit's own validator, every name is valid and
 * unique, and two loads list the very same tools.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/http.js';
import { encodeMessage } from '../../src/jsonrpc/serialize.js';
import { addOpenApiTools, loadOpenApiDocument, openApiTools, type OpenApiTool } from '../../src/openapi.js';
import { compileSchema } from '../../src/schema/index.js';
import { harness } from '../support/wire.js';

const FILE = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
const derive = async (): Promise<OpenApiTool[]> => openApiTools(await loadOpenApiDocument(FILE), { baseUrl: 'https://api.github.com' });
const digest = (tools: OpenApiTool[]): string =>
  createHash('sha256').update(JSON.stringify(tools.map((t) => [t.name, t.title, t.description, t.inputSchema, t.outputSchema, t.annotations]))).digest('hex');

describe("GitHub's REST API description", () => {
  it('becomes 1,223 tools with valid, unique names, valid 2020-12 schemas, the same on every load', async () => {
    const tools = await derive();
    expect(tools.length).toBe(1223);
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    // operationIds such as "repos/get" are not valid tool names: "/" became "_".
    expect(names).toContain('repos_get');

    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    let withOutput = 0;
    for (const tool of tools) {
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name} input: ${ajv.errorsText()}`).toBe(true);
      expect(tool.inputSchema['type']).toBe('object');
      compileSchema(tool.inputSchema);
      if (tool.outputSchema !== undefined) {
        withOutput++;
        expect(ajv.validateSchema(tool.outputSchema), `${tool.name} output: ${ajv.errorsText()}`).toBe(true);
        expect(tool.outputSchema['type']).toBe('object');
      }
    }
    expect(withOutput).toBeGreaterThan(900);
    // Every $ref in a tool's schema names one of its own $defs.
    for (const tool of tools.slice(0, 200)) {
      for (const schema of [tool.inputSchema, tool.outputSchema ?? {}]) {
        const text = JSON.stringify(schema);
        const defs = Object.keys((schema['$defs'] as object | undefined) ?? {});
        for (const [, name] of text.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)) expect(defs).toContain(name);
      }
    }
    // A few full compilations with ajv, the big and the circular ones included.
    for (const name of ['repos_get', 'issues_create', 'pulls_list', 'git_create-tree']) {
      const tool = tools.find((t) => t.name === name)!;
      ajv.compile(tool.inputSchema);
      if (tool.outputSchema !== undefined) ajv.compile(tool.outputSchema);
    }
    expect(digest(await derive())).toBe(digest(tools));
  }, 120_000);

  it('turns nullable and the issues body into the documented shapes', async () => {
    const tools = await derive();
    const create = tools.find((t) => t.name === 'issues_create')!;
    const properties = create.inputSchema['properties'] as Record<string, unknown>;
    // Path parameters first, then the flattened JSON body.
    expect(Object.keys(properties).slice(0, 3)).toEqual(['owner', 'repo', 'title']);
    expect(create.inputSchema['required']).toEqual(expect.arrayContaining(['owner', 'repo', 'title']));
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const text = JSON.stringify(tools.find((t) => t.name === 'repos_get')!.outputSchema);
    expect(text).not.toContain('"nullable"');
    expect(text).toContain('"null"');
  }, 120_000);

  it('lists over HTTP and stdio exactly what JSON.stringify writes of the answer, valid for the revision', async () => {
    const server = new McpServer({ name: 'github', version: '1' });
    await addOpenApiTools(server, FILE, { baseUrl: 'https://api.github.com' });
    for (const revision of ['2025-11-25', '2025-06-18'] as const) {
      // The answer as an object, validated against the revision's schema by the harness; its plain JSON.stringify is the old wire output.
      const wire = harness(server);
      await wire.initialize(revision);
      const answer = await wire.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const plain = JSON.stringify(answer);
      expect(plain.length).toBeGreaterThan(6_000_000);
      expect(((answer as { result: { tools: unknown[] } }).result.tools).length).toBe(1223);
      expect(encodeMessage(answer)).toBe(plain); // stdio and the SSE streams serialise through encodeJson

      const listener = await listen(server, { port: 0, host: '127.0.0.1' });
      try {
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': revision };
        const post = (body: unknown, extra: Record<string, string> = {}): Promise<Response> => fetch(listener.url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
        const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
        const session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
        await init.text();
        await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
        for (let round = 0; round < 2; round++) {
          const response = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, session);
          const bytes = Buffer.from(await response.arrayBuffer());
          // 1,223 tools: written in parts (json-parts.ts), chunked, never whole in the server.
          expect(response.headers.get('content-length')).toBeNull();
          expect(response.headers.get('transfer-encoding')).toBe('chunked');
          expect(bytes.equals(Buffer.from(plain, 'utf8')), `round ${round}: the HTTP body differs from JSON.stringify of the answer`).toBe(true);
        }
      } finally {
        await listener.close();
      }
    }
  }, 120_000);
});
