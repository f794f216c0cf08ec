/**
 * server.mount(): a child McpServer served live under a namespace, through the
 * protocol handler in both eras, every outgoing message validated against the
 * revision's schema (test/support/wire.ts harness).
 */
import { describe, expect, it, vi } from 'vitest';
import { McpServer, RegistrationError } from '../../src/index.js';
import { harness, modernMeta, settle } from '../support/wire.js';

type Json = Record<string, unknown>;

const quiet = (): { error: (message: string) => void; warn: (message: string) => void } => ({ error: vi.fn<(message: string) => void>(), warn: vi.fn<(message: string) => void>() });

function child(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0', logger: quiet() });
  server.tool('echo', { description: `${name} echo`, input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, (args) => `${name}:${String(args['text'])}`);
  server.resource('file:///readme.md', { name: 'readme', mimeType: 'text/markdown' }, () => `# ${name}`);
  server.resourceTemplate('note://{id}', { name: 'note', mimeType: 'text/plain', complete: { id: (value) => ['alpha', 'beta'].filter((v) => v.startsWith(value)) } }, (uri, vars) => `${name} note ${String(vars['id'])} at ${uri}`);
  server.prompt('greet', { description: 'Greets', arguments: [{ name: 'who', required: true }], complete: { who: () => ['Ada', 'Alan'] } }, (args) => `Hello ${String(args?.['who'])} from ${name}`);
  return server;
}

function parent(): McpServer {
  const server = new McpServer({ name: 'parent', version: '1.0.0', logger: quiet() });
  server.tool('own', { description: 'the parent’s own' }, () => 'own');
  return server;
}

const resultOf = (response: Json): Json => response['result'] as Json;
const errorOf = (response: Json): Json => response['error'] as Json;
const textOf = (response: Json): string => ((resultOf(response)['content'] as Json[])[0]?.['text'] as string) ?? '';

describe('server.mount (legacy session)', () => {
  it('lists tools, resources, templates and prompts under the namespace, after the parent’s own, in mount order', async () => {
    const server = parent();
    server.mount(child('docs'), { namespace: 'docs' });
    server.mount(child('code'), { namespace: 'code' });
    const h = harness(server);
    await h.initialize();
    expect((resultOf(await h.request('tools/list'))['tools'] as Json[]).map((t) => t['name'])).toEqual(['own', 'docs_echo', 'code_echo']);
    expect((resultOf(await h.request('resources/list'))['resources'] as Json[]).map((r) => r['uri'])).toEqual(['docs+file:///readme.md', 'code+file:///readme.md']);
    expect((resultOf(await h.request('resources/templates/list'))['resourceTemplates'] as Json[]).map((r) => r['uriTemplate'])).toEqual(['docs+note://{id}', 'code+note://{id}']);
    expect((resultOf(await h.request('prompts/list'))['prompts'] as Json[]).map((p) => p['name'])).toEqual(['docs_greet', 'code_greet']);
  });

  it('calls, reads, gets and completes through the mount, with the child’s validation', async () => {
    const server = parent();
    server.mount(child('docs'), { namespace: 'docs' });
    const h = harness(server);
    await h.initialize();
    expect(textOf(await h.request('tools/call', { name: 'docs_echo', arguments: { text: 'hi' } }))).toBe('docs:hi');
    const invalid = resultOf(await h.request('tools/call', { name: 'docs_echo', arguments: { text: 3 } }));
    expect(invalid['isError']).toBe(true);
    const read = resultOf(await h.request('resources/read', { uri: 'docs+file:///readme.md' }));
    expect(read['contents']).toEqual([{ uri: 'docs+file:///readme.md', mimeType: 'text/markdown', text: '# docs' }]);
    const note = resultOf(await h.request('resources/read', { uri: 'docs+note://42' }));
    // The child's reader sees its own URI; the contents carry the parent's.
    expect(note['contents']).toEqual([{ uri: 'docs+note://42', mimeType: 'text/plain', text: 'docs note 42 at note://42' }]);
    const got = resultOf(await h.request('prompts/get', { name: 'docs_greet', arguments: { who: 'Ada' } }));
    expect(got['messages']).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada from docs' } }]);
    expect(errorOf(await h.request('prompts/get', { name: 'docs_greet' }))['code']).toBe(-32602);
    const completed = resultOf(await h.request('completion/complete', { ref: { type: 'ref/resource', uri: 'docs+note://{id}' }, argument: { name: 'id', value: 'a' } }));
    expect(completed['completion']).toEqual({ values: ['alpha'], total: 1, hasMore: false });
    const prompted = resultOf(await h.request('completion/complete', { ref: { type: 'ref/prompt', name: 'docs_greet' }, argument: { name: 'who', value: '' } }));
    expect((prompted['completion'] as Json)['values']).toEqual(['Ada', 'Alan']);
  });

  it('answers an unknown namespaced name itself (-32602 / resource not found) and never asks the child', async () => {
    const server = parent();
    const docs = child('docs');
    const spy = vi.fn();
    docs.use(async (ctx, next) => {
      spy(ctx.method);
      return next();
    });
    server.mount(docs, { namespace: 'docs' });
    const h = harness(server);
    await h.initialize();
    expect(errorOf(await h.request('tools/call', { name: 'docs_nope', arguments: {} }))['code']).toBe(-32602);
    expect(errorOf(await h.request('tools/call', { name: 'code_echo', arguments: {} }))['code']).toBe(-32602);
    expect(errorOf(await h.request('prompts/get', { name: 'docs_nope' }))['code']).toBe(-32602);
    expect(errorOf(await h.request('resources/read', { uri: 'docs+file:///nope' }))['code']).toBe(-32002);
    expect(errorOf(await h.request('resources/read', { uri: 'file:///readme.md' }))['code']).toBe(-32002);
    expect(spy).not.toHaveBeenCalled();
  });

  it('runs the middleware of both: the parent’s with the namespaced name, the child’s with its own', async () => {
    const server = parent();
    const docs = child('docs');
    const seen: string[] = [];
    server.use('tools/call', async (ctx, next) => {
      seen.push(`parent ${ctx.params.name}`);
      return next();
    });
    docs.use('tools/call', async (ctx, next) => {
      seen.push(`child ${ctx.params.name}`);
      ctx.params.arguments = { text: 'rewritten' };
      const result = await next();
      return { ...result, content: [{ type: 'text' as const, text: `${(result.content[0] as { text: string }).text}!` }] };
    });
    server.mount(docs, { namespace: 'docs' });
    const h = harness(server);
    await h.initialize();
    expect(textOf(await h.request('tools/call', { name: 'docs_echo', arguments: { text: 'hi' } }))).toBe('docs:rewritten!');
    expect(seen).toEqual(['parent docs_echo', 'child echo']);
  });

  it('relays the child’s list changes and resource updates (namespaced) to the parent’s sessions', async () => {
    const server = parent();
    const docs = child('docs');
    server.mount(docs, { namespace: 'docs' });
    const h = harness(server);
    await h.initialize();
    await h.request('resources/subscribe', { uri: 'docs+note://7' });
    docs.tool('late', { description: 'added after mounting' }, () => 'late');
    await docs.notifyResourceUpdated('note://7');
    await docs.notifyResourceUpdated('note://8');
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const methods = (h.sent as Json[]).map((m) => `${String(m['method'])}${m['params'] ? ` ${JSON.stringify((m['params'] as Json)['uri'] ?? '')}` : ''}`);
    expect(methods).toContain('notifications/tools/list_changed');
    expect(methods).toContain('notifications/resources/updated "docs+note://7"');
    expect(methods).not.toContain('notifications/resources/updated "docs+note://8"');
    expect((resultOf(await h.request('tools/list'))['tools'] as Json[]).map((t) => t['name'])).toEqual(['own', 'docs_echo', 'docs_late']);
  });

  it('declares the capabilities the child brings', async () => {
    const server = new McpServer({ name: 'empty', version: '1.0.0', logger: quiet() });
    expect(server.getMetadata().capabilities.tools).toBeUndefined();
    server.mount(child('docs'), { namespace: 'docs' });
    expect(server.getMetadata().capabilities).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} });
  });

  it('takes a mount out again with remove()', async () => {
    const server = parent();
    const mounted = server.mount(child('docs'), { namespace: 'docs' });
    const h = harness(server);
    await h.initialize();
    mounted.remove();
    expect((resultOf(await h.request('tools/list'))['tools'] as Json[]).map((t) => t['name'])).toEqual(['own']);
    expect(errorOf(await h.request('tools/call', { name: 'docs_echo', arguments: { text: 'x' } }))['code']).toBe(-32602);
  });
});

describe('server.mount (2026-07-28 requests)', () => {
  it('lists and calls through the mount without a session', async () => {
    const server = parent();
    server.mount(child('docs'), { namespace: 'docs' });
    const h = harness(server);
    const listed = await h.request('tools/list', { _meta: modernMeta() });
    expect((resultOf(listed)['tools'] as Json[]).map((t) => t['name'])).toEqual(['own', 'docs_echo']);
    const called = await h.request('tools/call', { name: 'docs_echo', arguments: { text: 'modern' }, _meta: modernMeta() });
    expect(textOf(called)).toBe('docs:modern');
    const read = await h.request('resources/read', { uri: 'docs+note://1', _meta: modernMeta() });
    expect((resultOf(read)['contents'] as Json[])[0]?.['uri']).toBe('docs+note://1');
  });
});

describe('mount-time checks', () => {
  it('refuses a name both sides serve now, naming it and who has it', () => {
    const server = parent();
    server.tool('docs_echo', { description: 'taken' }, () => 'x');
    expect(() => server.mount(child('docs'), { namespace: 'docs' })).toThrow(RegistrationError);
    expect(() => server.mount(child('docs'), { namespace: 'docs' })).toThrow('tool "docs_echo" of mount "docs" is already served by this server');
  });

  it('refuses namespaces whose names collide across mounts ("a" + "b_c" and "a_b" + "c")', () => {
    const server = parent();
    const a = new McpServer({ name: 'a', version: '1', logger: quiet() });
    a.tool('b_c', {}, () => 'a');
    const ab = new McpServer({ name: 'ab', version: '1', logger: quiet() });
    ab.tool('c', {}, () => 'ab');
    server.mount(a, { namespace: 'a' });
    expect(() => server.mount(ab, { namespace: 'a_b' })).toThrow('tool "a_b_c" of mount "a_b" is already served by mount "a"');
  });

  it('refuses bad options with the key and the rule', () => {
    const server = parent();
    expect(() => server.mount(child('x'), { namespace: '1abc' })).toThrow(/invalid namespace "1abc": it must start with a letter/);
    expect(() => server.mount(child('x'), { namespace: 'ok', separator: '/' })).toThrow(/invalid separator "\/"/);
    expect(() => server.mount(child('x'), { namespace: 'ok', seperator: '_' } as never)).toThrow(/seperator/);
    expect(() => server.mount(server, { namespace: 'self' })).toThrow(/cannot be mounted in itself/);
    server.mount(child('x'), { namespace: 'a_b' });
    expect(() => server.mount(child('y'), { namespace: 'a-b' })).toThrow(/same resource URI prefix "a-b\+"/);
  });

  it('warns when a list changes into a conflict, and the earlier source keeps the name', async () => {
    const logger = quiet();
    const server = new McpServer({ name: 'p', version: '1', logger });
    const a = new McpServer({ name: 'a', version: '1', logger: quiet() });
    const ab = new McpServer({ name: 'ab', version: '1', logger: quiet() });
    server.mount(a, { namespace: 'a' });
    server.mount(ab, { namespace: 'a_b' });
    ab.tool('c', {}, () => 'from a_b');
    a.tool('b_c', {}, () => 'from a');
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('tools "a_b_c" is served by both mount "a" and mount "a_b"; mount "a" keeps it'));
    const h = harness(server);
    await h.initialize();
    expect((resultOf(await h.request('tools/list'))['tools'] as Json[]).map((t) => t['name'])).toEqual(['a_b_c']);
    expect(textOf(await h.request('tools/call', { name: 'a_b_c', arguments: {} }))).toBe('from a');
  });
});
