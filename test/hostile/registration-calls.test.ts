/**
 * Plain-JavaScript registration mistakes fail at registration, with a message
 * that names the mistake and the right call: tool names outside the spec's
 * rules, a missing handler, the official SDK's argument orders and key names,
 * bad resource URIs and templates. Nothing half-registered is left behind.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, McpToolRegistry, RegistrationError, UriTemplateError } from '../../src/index.js';
import { client, LEGACY } from '../protocol/support.js';

const server = (config: { strictToolNames?: boolean } = {}): McpServer => new McpServer({ name: 'calls', version: '1.0.0', ...config });
// Plain JavaScript: the calls below break the TypeScript signatures on purpose.
type Loose = (...args: unknown[]) => unknown;
const loose = (s: McpServer, method: 'tool' | 'resource' | 'resourceTemplate' | 'prompt'): Loose => (s[method] as Loose).bind(s);
const RULES = 'a tool name is 1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and "." (MCP tool-name rules; strictToolNames: false lifts this)';

describe('tool names', () => {
  it.each([
    ['get weather', '" " at position 3'],
    ['weather/today', '"/" at position 7'],
    ['Grüße', '"ü" at position 2'],
    ['tool,x', '"," at position 4'],
    ['emoji😀', '"😀" at position 5'],
  ])('%j is refused', (name, where) => {
    expect(() => server().tool(name, {}, () => 'x')).toThrow(`Invalid tool name ${JSON.stringify(name)}: ${where} is not allowed; ${RULES}`);
  });

  it('129 characters are refused, 128 accepted', () => {
    const s = server();
    expect(() => s.tool('a'.repeat(129), {}, () => 'x')).toThrow(`Invalid tool name "${'a'.repeat(40)}…" (129 characters): ${RULES}`);
    s.tool('a'.repeat(128), {}, () => 'x');
    expect(s.tools.size).toBe(1);
  });

  it('the spec examples and every allowed character are accepted', () => {
    const s = server();
    for (const name of ['getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'user-profile.update', '_', '-', '.']) s.tool(name, {}, () => 'x');
    expect(s.tools.size).toBe(7);
  });

  it('agrees with the rule on random names (property)', () => {
    const registry = new McpToolRegistry();
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 140 }), (name) => {
        const valid = /^[A-Za-z0-9_.-]{1,128}$/.test(name);
        const register = (): void => registry.register({ name, execute: () => ({ content: [] }) });
        if (valid) {
          if (!registry.has(name)) register();
          expect(registry.has(name)).toBe(true);
        } else {
          expect(register).toThrow(RegistrationError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('strictToolNames: false allows other names, and they are served', async () => {
    const s = server({ strictToolNames: false });
    s.tool('Grüße', {}, () => 'hallo');
    const c = client(s);
    await c.initialize({ protocolVersion: LEGACY });
    expect(await c.request('tools/call', { name: 'Grüße', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'hallo' }] });
    expect(() => s.tool('', {}, () => 'x')).toThrow('A tool needs a non-empty string name');
  });
});

describe('server.tool() call shapes', () => {
  const tool = (...args: unknown[]): unknown => loose(server(), 'tool')(...args);
  const SIGNATURE = 'server.tool(name, { description, input }, (args, ctx) => result)';

  it('the SDK 4-argument call server.tool(name, description, shape, handler)', () => {
    expect(() => tool('weather', 'Get the weather', { city: z.string() }, () => 'x')).toThrow(
      `server.tool("weather", "Get the weather", …) looks like the official SDK's signature; mcpkit's is ${SIGNATURE}`,
    );
  });

  it('the SDK 3-argument call server.tool(name, shape, handler)', () => {
    expect(() => tool('weather', { city: z.string() }, () => 'x')).toThrow(
      'server.tool("weather", …): the second argument is the config, not the argument shape; write server.tool("weather", { input: { … } }, handler)',
    );
  });

  it('server.tool(name, handler)', () => {
    expect(() => tool('weather', () => 'x')).toThrow(`server.tool("weather", …): the second argument is the config object and the handler comes third: ${SIGNATURE}`);
  });

  it.each([
    ['undefined', undefined],
    ['a string', 'handler'],
    ['an object', {}],
  ])('a missing handler (%s)', (_what, handler) => {
    const kind = handler === undefined ? 'undefined' : typeof handler;
    expect(() => tool('weather', { description: 'd' }, handler)).toThrow(
      `server.tool("weather", …) needs a handler function as its third argument (got ${kind}): ${SIGNATURE}`,
    );
    expect(() => tool('weather', { description: 'd' }, handler)).toThrow(RegistrationError);
  });

  it.each([
    ['inputSchema', 'input'],
    ['outputSchema', 'output'],
    ['paramsSchema', 'input'],
  ])('the SDK key %s in the config', (wrong, right) => {
    expect(() => tool('weather', { [wrong]: { city: z.string() } }, () => 'x')).toThrow(
      `server.tool("weather", …): the config has "${wrong}", which mcpkit calls "${right}": ${SIGNATURE}`,
    );
  });

  it('a config that is not an object', () => {
    expect(() => tool('weather', null, () => 'x')).toThrow(`server.tool("weather", …): the config must be an object (got null): ${SIGNATURE}`);
  });

  it('nothing is registered by a refused call, and the handle refuses a broken update', () => {
    const s = server();
    expect(() => loose(s, 'tool')('weather', 'desc', {}, () => 'x')).toThrow(RegistrationError);
    expect(s.tools.size).toBe(0);
    const handle = s.tool('weather', {}, () => 'x');
    expect(() => handle.update({ handler: 'nope' as never })).toThrow('tool.update("weather", …) needs a handler function');
    expect(() => handle.update({ input: z.string() as never })).toThrow('Tool "weather": its input schema must describe an object');
  });

  it('the seed registry refuses a tool without execute', () => {
    const registry = new McpToolRegistry();
    expect(() => registry.register({ name: 'x' } as never)).toThrow('Tool "x": execute must be a function (got undefined)');
    expect(() => registry.register(null as never)).toThrow('A tool must be an object with a name and an execute function (got null)');
  });
});

describe('resources, templates and prompts', () => {
  it('server.resource: SDK order, missing reader, bad URIs', () => {
    const s = server();
    const resource = loose(s, 'resource');
    const SIGNATURE = 'server.resource(uri, { name, mimeType }, (ctx) => contents)';
    expect(() => resource('config', 'config://app', () => 'x')).toThrow(
      `server.resource("config", "config://app", …) looks like the official SDK's signature; mcpkit's is ${SIGNATURE}`,
    );
    expect(() => resource('config://app', {})).toThrow(`server.resource("config://app", …) needs a handler function as its third argument (got undefined): ${SIGNATURE}`);
    expect(() => resource('config', {}, () => 'x')).toThrow('Resource URI "config" has no scheme: write an absolute URI such as "file:///config" or "app://config"');
    expect(() => resource('file:///a b.txt', {}, () => 'x')).toThrow(
      'Resource URI "file:///a b.txt" contains a space or control character: percent-encode it (a space is %20)',
    );
    expect(() => resource('users://{id}', {}, () => 'x')).toThrow(
      'Resource URI "users://{id}" is a URI template: register it with server.resourceTemplate() (or resources.templates.register())',
    );
    expect(() => s.resources.register({ uri: 'x://a', name: 'a' } as never)).toThrow('Resource "x://a": read must be a function (got undefined)');
    expect(s.resources.size).toBe(0);
  });

  it('server.resourceTemplate: missing reader, bad templates', () => {
    const s = server();
    const template = loose(s, 'resourceTemplate');
    expect(() => template('users://{id}', {})).toThrow('server.resourceTemplate("users://{id}", …) needs a handler function as its third argument (got undefined)');
    expect(() => template('users://{id', {}, () => 'x')).toThrow(UriTemplateError);
    expect(() => template('users://{id', {}, () => 'x')).toThrow('Invalid URI template "users://{id": unclosed \'{\' at position 8');
    expect(() => template('users://all', {}, () => 'x')).toThrow('Resource template "users://all" has no {expression}: register a fixed URI with server.resource() instead');
    expect(() => template('users/{id}', {}, () => 'x')).toThrow('Resource template "users/{id}" has no scheme: write an absolute URI template such as "file:///{path}"');
    template('{+uri}', {}, () => 'x'); // a template may start with an expression
    expect(s.resources.templates.size).toBe(1);
  });

  it('the handles refuse a broken update', () => {
    const s = server();
    const resource = s.resource('config://app', {}, () => 'x');
    const template = s.resourceTemplate('users://{id}', {}, () => 'x');
    const prompt = s.prompt('review', {}, () => 'x');
    expect(() => resource.update({ handler: 'nope' as never })).toThrow('resource.update("config://app", …) needs a handler function as its third argument (got string)');
    expect(() => template.update({ handler: 1 as never })).toThrow('resourceTemplate.update("users://{id}", …) needs a handler function as its third argument (got number)');
    expect(() => prompt.update({ argsSchema: {} } as never)).toThrow('prompt.update("review", …): the config has "argsSchema", which mcpkit calls "arguments"');
  });

  it('server.prompt: SDK order and missing handler', () => {
    const s = server();
    const prompt = loose(s, 'prompt');
    expect(() => prompt('review', 'Review code', { code: z.string() }, () => 'x')).toThrow(
      'server.prompt("review", "Review code", …) looks like the official SDK\'s signature; mcpkit\'s is server.prompt(name, { description, arguments }, (args, ctx) => messages)',
    );
    expect(() => prompt('review', { argsSchema: {} }, () => 'x')).toThrow('server.prompt("review", …): the config has "argsSchema", which mcpkit calls "arguments"');
    expect(() => prompt('review', {})).toThrow('server.prompt("review", …) needs a handler function as its third argument (got undefined)');
    expect(() => s.prompts.register({ name: 'p' } as never)).toThrow('Prompt "p": get must be a function (got undefined)');
    expect(s.prompts.size).toBe(0);
  });
});
