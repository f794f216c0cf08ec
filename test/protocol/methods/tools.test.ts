import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ToolError } from '../../../src/errors/classes.js';
import { McpServer } from '../../../src/server/server.js';
import { TestClientError } from '../../../src/testing/index.js';
import { client, connected, lastResponse } from '../support.js';

function server(options: { maskErrors?: boolean } = {}): McpServer {
  return new McpServer({ name: 'tools', version: '1.0.0', logger: { error: () => undefined }, results: options });
}

const rawSchema = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city'],
  additionalProperties: false,
} as const;

describe('tools with Standard Schema (zod) input', () => {
  const make = (): McpServer => {
    const s = server();
    s.tool(
      'add',
      { title: 'Add', description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number().int() }) },
      // The handler's args are inferred from the schema (checked by tsc).
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number }>();
        return String(args.a + args.b);
      },
    );
    return s;
  };

  it('advertises the schema as JSON Schema and answers with text', async () => {
    const c = await connected(make());
    const list = await c.listTools();
    expect(list['tools']).toEqual([
      {
        name: 'add',
        title: 'Add',
        description: 'Adds two numbers',
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: { a: { type: 'number' }, b: expect.objectContaining({ type: 'integer' }) },
          required: ['a', 'b'],
        }),
      },
    ]);
    expect(await c.callTool('add', { a: 2, b: 3 })).toEqual({ content: [{ type: 'text', text: '5' }] });
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '5' }] } });
  });

  it('reports a validation failure as a tool error naming the field and the expectation', async () => {
    const c = await connected(make());
    expect(await c.callTool('add', { a: 'two', b: 1.5 })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: "a": Invalid input: expected number, received string; "b": Invalid input: expected int, received number' }],
      isError: true,
    });
  });

  it('treats missing arguments as {} and names the required fields', async () => {
    const c = await connected(make());
    expect(await c.callTool('add')).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: "a": Invalid input: expected number, received undefined; "b": Invalid input: expected number, received undefined' }],
      isError: true,
    });
  });
});

describe('tools with raw JSON Schema input', () => {
  const make = (): McpServer => {
    const s = server();
    s.tool('forecast', { input: rawSchema }, (args) => `${args['city'] as string} for ${(args['days'] as number | undefined) ?? 1} days`);
    return s;
  };

  it('advertises the schema exactly as given', async () => {
    const c = await connected(make());
    const list = await c.listTools();
    expect(list).toEqual({ tools: [{ name: 'forecast', inputSchema: rawSchema }] });
  });

  it('validates arguments against it', async () => {
    const c = await connected(make());
    expect(await c.callTool('forecast', { city: 'Oslo', days: 3 })).toEqual({ content: [{ type: 'text', text: 'Oslo for 3 days' }] });
    const bad = await c.callTool('forecast', { city: 'Oslo', days: 9 });
    expect(bad['isError']).toBe(true);
    expect((bad['content'] as { text: string }[])[0]!.text).toMatch(/"days".*7/);
    const missing = await c.callTool('forecast');
    expect(missing['isError']).toBe(true);
    expect((missing['content'] as { text: string }[])[0]!.text).toMatch(/"city".*required/);
  });

  it('a tool without an input schema accepts any object and advertises {type: "object"}', async () => {
    const s = server();
    s.tool('anything', {}, (args) => JSON.stringify(args));
    const c = await connected(s);
    expect(await c.listTools()).toEqual({ tools: [{ name: 'anything', inputSchema: { type: 'object' } }] });
    expect(await c.callTool('anything')).toEqual({ content: [{ type: 'text', text: '{}' }] });
  });
});

describe('schema details', () => {
  it('a raw 2020-12 schema with $defs/$ref is advertised unchanged and enforced', async () => {
    const raw = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { pos: { type: 'integer', exclusiveMinimum: 0 } },
      properties: { n: { $ref: '#/$defs/pos' }, tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
      required: ['n'],
    } as const;
    const s = server();
    s.tool('raw', { input: raw }, (args) => JSON.stringify(args));
    const c = await connected(s);
    expect(await c.listTools()).toEqual({ tools: [{ name: 'raw', inputSchema: raw }] });
    expect(await c.callTool('raw', { n: 0, tags: ['a', 'a'] })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: "n" must be > 0 (got 0); "tags" must not contain duplicate items (items 0 and 1 are equal)' }],
      isError: true,
    });
    expect(await c.callTool('raw', { n: 2 })).toEqual({ content: [{ type: 'text', text: '{"n":2}' }] });
  });

  it('zod defaults and optionals: not required on the wire, applied before the handler runs', async () => {
    const s = server();
    s.tool('def', { input: z.object({ n: z.number().default(5), note: z.string().optional(), mode: z.enum(['a', 'b']) }) }, (args) => {
      // Inferred output type: n is a number (default applied), note may be undefined.
      const n: number = args.n;
      return JSON.stringify({ n, note: args.note ?? null, mode: args.mode });
    });
    const c = await connected(s);
    const [tool] = (await c.listTools())['tools'] as { inputSchema: Record<string, unknown> }[];
    expect(tool?.inputSchema['required']).toEqual(['mode']);
    expect(tool?.inputSchema['properties']).toEqual({ n: { type: 'number', default: 5 }, note: { type: 'string' }, mode: { type: 'string', enum: ['a', 'b'] } });
    expect(await c.callTool('def', { mode: 'a' })).toEqual({ content: [{ type: 'text', text: '{"n":5,"note":null,"mode":"a"}' }] });
    expect(await c.callTool('def', { mode: 'c' })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: "mode": Invalid option: expected one of "a"|"b"' }],
      isError: true,
    });
  });
});

describe('tool output', () => {
  const make = (): McpServer => {
    const s = server();
    const output = z.object({ celsius: z.number(), label: z.string() });
    s.tool('temp', { output }, () => ({ celsius: 21.5, label: 'mild' }));
    s.tool('broken', { output: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }, () => ({ n: 'not a number' }));
    s.tool('refuse', { output }, () => {
      throw new ToolError('sensor offline', { structuredContent: { celsius: 0, label: 'unknown' } });
    });
    s.tool('plain', {}, () => 'just text');
    return s;
  };

  it('a plain object with an output schema becomes structuredContent plus its JSON text', async () => {
    const c = await connected(make());
    const list = await c.listTools();
    const temp = list.tools.find((t) => t.name === 'temp');
    expect(temp?.outputSchema).toEqual(expect.objectContaining({ type: 'object', required: ['celsius', 'label'] }));
    expect(await c.callTool('temp')).toEqual({
      content: [{ type: 'text', text: '{"celsius":21.5,"label":"mild"}' }],
      structuredContent: { celsius: 21.5, label: 'mild' },
    });
    expect(await c.callTool('plain')).toEqual({ content: [{ type: 'text', text: 'just text' }] });
  });

  it('structuredContent that breaks the output schema is a server-side error (-32603)', async () => {
    const c = await connected(make());
    const error = await c.callTool('broken').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestClientError);
    expect((error as TestClientError).code).toBe(-32603);
    expect((error as TestClientError).detail).toMatch(/broken.*outputSchema/);
  });

  it('an error result may carry structuredContent', async () => {
    const c = await connected(make());
    expect(await c.callTool('refuse')).toEqual({
      content: [{ type: 'text', text: 'sensor offline' }],
      isError: true,
      structuredContent: { celsius: 0, label: 'unknown' },
    });
  });
});

describe('tool errors', () => {
  const make = (maskErrors: boolean): McpServer => {
    const s = server({ maskErrors });
    s.tool('model', {}, () => {
      throw new ToolError('try a smaller number');
    });
    s.tool('bug', {}, () => {
      throw new Error('db password wrong at /srv/x');
    });
    return s;
  };

  it('ToolError messages reach the model; other throws do too unless masked', async () => {
    const c = await connected(make(false));
    expect(await c.callTool('model')).toEqual({ content: [{ type: 'text', text: 'try a smaller number' }], isError: true });
    expect(await c.callTool('bug')).toEqual({ content: [{ type: 'text', text: 'db password wrong at /srv/x' }], isError: true });
  });

  it('maskErrors hides unexpected messages but never a ToolError', async () => {
    const c = await connected(make(true));
    expect(await c.callTool('model')).toEqual({ content: [{ type: 'text', text: 'try a smaller number' }], isError: true });
    expect(await c.callTool('bug')).toEqual({ content: [{ type: 'text', text: 'Internal error' }], isError: true });
  });

  it('an unknown tool is -32602 naming it', async () => {
    const c = await connected(make(false));
    await c.callTool('nope').catch((e: unknown) => e);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params: Unknown tool: nope' } });
  });
});

describe('tool handles and seed-style registration', () => {
  it('update, disable, enable and remove change what is listed and callable', async () => {
    const s = server();
    s.tools.register({ name: 'seed', inputSchema: { type: 'object' }, execute: () => ({ content: [{ type: 'text', text: 'seeded' }] }) });
    const h = s.tool('greet', { description: 'v1' }, () => 'hello');
    const c = await connected(s);
    const names = async (): Promise<unknown[]> => ((await c.listTools())['tools'] as { name: string }[]).map((t) => t.name);
    expect(await names()).toEqual(['seed', 'greet']);
    expect(await c.callTool('seed')).toEqual({ content: [{ type: 'text', text: 'seeded' }] });

    h.update({ description: 'v2', handler: () => 'hi' });
    expect((await c.listTools())['tools']).toEqual([{ name: 'seed', inputSchema: { type: 'object' } }, { name: 'greet', description: 'v2', inputSchema: { type: 'object' } }]);
    expect(await c.callTool('greet')).toEqual({ content: [{ type: 'text', text: 'hi' }] });

    h.disable();
    expect(h.enabled).toBe(false);
    expect(await names()).toEqual(['seed']);
    expect(await c.callTool('greet').catch((e: unknown) => (e as TestClientError).code)).toBe(-32602);
    h.enable();
    expect(await names()).toEqual(['seed', 'greet']);
    h.remove();
    expect(await names()).toEqual(['seed']);
  });
});

describe('tools on the 2026-07-28 path', () => {
  it('the same call answers with resultType complete and server info', async () => {
    const s = server();
    s.tool('add', { input: z.object({ a: z.number(), b: z.number() }) }, (args) => String(args.a + args.b));
    const c = client(s, { modern: true });
    const result = await c.callTool('add', { a: 1, b: 2 });
    expect(result).toEqual({
      content: [{ type: 'text', text: '3' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tools', version: '1.0.0' } },
    });
  });
});
