/**
 * Registration refuses tool schemas that cannot work, with a message that
 * says what to write instead, and supports raw shapes (`{ city: z.string() }`,
 * the official SDK's style) properly: advertised as an object schema and
 * validated per property, over a real client.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { z } from 'zod';
import { McpServer, RegistrationError, SchemaConversionError } from '../../src/index.js';
import { client, LEGACY, MODERN } from '../protocol/support.js';

const server = (): McpServer => new McpServer({ name: 'registration', version: '1.0.0' });
const objectMessage = (tool: string, which: 'input' | 'output', has: string): string =>
  `Tool "${tool}": its ${which} schema must describe an object (type: "object" at the root; ` +
  `${which === 'input' ? 'tool arguments are' : 'structuredContent is'} always a JSON object), but it has ${has}. ` +
  `Put the value in a property: ${which}: z.object({ value: z.string() }), { value: z.string() }, ` +
  `or { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] }`;

describe('raw shapes ({ city: z.string() })', () => {
  it('are advertised as an object schema with the right properties and required list', async () => {
    const s = server();
    s.tool('weather', { input: { city: z.string().describe('City name'), days: z.number().int().optional() } }, ({ city, days }) => `${city}:${days ?? 1}`);
    for (const revision of [LEGACY, MODERN]) {
      const c = client(s);
      if (revision === LEGACY) await c.initialize({ protocolVersion: LEGACY });
      const { tools } = (await c.request('tools/list', {})) as { tools: { name: string; inputSchema: unknown }[] };
      expect(tools[0]!.inputSchema).toEqual({
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name' },
          days: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        },
        required: ['city'],
      });
    }
  });

  it('validate their arguments: wrong or missing values are a tool error, unknown keys are dropped', async () => {
    const s = server();
    const seen: unknown[] = [];
    s.tool('weather', { input: { city: z.string(), days: z.number().optional() } }, (args) => {
      seen.push(args);
      return 'ok';
    });
    const c = client(s);
    await c.initialize({ protocolVersion: LEGACY });
    const call = (args: unknown): Promise<unknown> => c.request('tools/call', { name: 'weather', arguments: args });
    expect(await call({ city: 42 })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: "city": Invalid input: expected string, received number' }],
      isError: true,
    });
    expect(await call({})).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: "city": Invalid input: expected string, received undefined' }],
      isError: true,
    });
    expect(await call({ city: 'Oslo', days: 'three', extra: 1 })).toMatchObject({ isError: true });
    expect(await call({ city: 'Oslo', extra: 1 })).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(seen).toEqual([{ city: 'Oslo' }]);
  });

  it('work with any Standard Schema vendor (valibot) and with async validation', async () => {
    const s = server();
    const slowName = z.string().refine(async (n) => Promise.resolve(n.length > 1), 'too short');
    s.tool('greet', { input: { name: slowName } }, ({ name }) => `hi ${name}`);
    const c = client(s);
    await c.initialize({ protocolVersion: LEGACY });
    expect(await c.request('tools/call', { name: 'greet', arguments: { name: 'Al' } })).toEqual({ content: [{ type: 'text', text: 'hi Al' }] });
    expect(await c.request('tools/call', { name: 'greet', arguments: { name: 'A' } })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments: "name" too short' }],
      isError: true,
    });
    // valibot has no JSON Schema conversion of its own: the error says how to attach one.
    expect(() => s.tool('v', { input: { a: v.string() } }, () => 'x')).toThrow(SchemaConversionError);
    expect(() => s.tool('v', { input: { a: v.string() } }, () => 'x')).toThrow(/^Tool "v": input schema: This valibot schema cannot produce a JSON Schema/);
  });

  it('refuse a mix of schemas and other values', () => {
    expect(() => server().tool('mixed', { input: { city: z.string(), days: 3 } as never }, () => 'x')).toThrow(
      'Tool "mixed": input schema: A raw shape\'s values must all be Standard Schemas (zod, valibot, arktype, …), but "days" is number; ' +
        'write every property as a schema, or pass one object schema (z.object({ ... }) or a JSON Schema object)',
    );
  });
});

describe('non-object and invalid input schemas', () => {
  it.each([
    ['z.string()', z.string(), 'type "string"'],
    ['z.array(z.number())', z.array(z.number()), 'type "array"'],
    ['z.union of objects', z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]), 'no "type"'],
    ['{ type: "string" }', { type: 'string' }, 'type "string"'],
    ['{ properties: {} }', { properties: {} }, 'no "type"'],
  ])('input: %s is refused', (_name, input, has) => {
    expect(() => server().tool('t', { input: input as never }, () => 'x')).toThrow(RegistrationError);
    expect(() => server().tool('t', { input: input as never }, () => 'x')).toThrow(objectMessage('t', 'input', has));
  });

  it('output: z.string() is refused too', () => {
    expect(() => server().tool('t', { output: z.string() as never }, () => 'x')).toThrow(objectMessage('t', 'output', 'type "string"'));
  });

  it.each([
    [{ type: 'nope' }, '"type" at # must be one of "string", "number", "integer", "boolean", "object", "array", "null", or a non-empty array of them (got "nope")'],
    [
      { type: 'object', properties: { city: { type: 'text' } } },
      '"type" at #/properties/city must be one of "string", "number", "integer", "boolean", "object", "array", "null", or a non-empty array of them (got "text")',
    ],
    [{ type: 'object', required: 'city' }, '"required" at # must be an array of property names (strings) (got "city")'],
    [{ type: 'object', properties: { a: 'string' } }, '"properties" at # must be an object whose values are schemas (got {"a":"string"})'],
    [{ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }, '"minLength" at #/properties/a must be a non-negative integer (got -1)'],
    [{ type: 'object', anyOf: [] }, '"anyOf" at # must be a non-empty array of schemas (got [])'],
    [{ type: 'object', properties: { a: { pattern: '(' } } }, /^Tool "t": input schema: Invalid JSON Schema: pattern \/\(\/ at #\/properties\/a: /],
  ])('%j is refused at registration', (schema, message) => {
    const register = (): unknown => server().tool('t', { input: schema }, () => 'x');
    expect(register).toThrow(SchemaConversionError);
    expect(register).toThrow(typeof message === 'string' ? `Tool "t": input schema: Invalid JSON Schema: ${message}` : message);
  });

  it('the seed registry refuses the same schemas (even with validateInput: false)', () => {
    const s = server();
    const execute = (): { content: [] } => ({ content: [] });
    expect(() => s.tools.register({ name: 'a', inputSchema: { type: 'string' }, execute })).toThrow(objectMessage('a', 'input', 'type "string"'));
    expect(() => s.tools.register({ name: 'b', inputSchema: { type: 'nope' }, execute }, { validateInput: false })).toThrow(
      'Invalid JSON Schema: "type" at # must be one of',
    );
    expect(s.tools.size).toBe(0);
  });

  it('valid schemas of every supported form still register', () => {
    const s = server();
    s.tool('zod', { input: z.object({ a: z.string() }) }, () => 'x');
    s.tool('json', { input: { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'] } }, () => 'x');
    s.tool('none', {}, () => 'x');
    s.tool('shape', { input: { a: z.string() }, output: { b: z.number() } }, () => ({ b: 1 }));
    expect(s.tools.list().map((t) => t.name)).toEqual(['zod', 'json', 'none', 'shape']);
  });
});
