/**
 * transformProvider(): rename, filter, re-describe, reshape arguments, and
 * prompts or resources as tools, on a mounted server and on a plain provider,
 * served through the protocol handler (every outgoing message validated).
 */
import { describe, expect, it, vi } from 'vitest';
import { McpServer, RegistrationError, transformProvider, type McpProvider, type RequestContext } from '../../src/index.js';
import { harness, modernMeta } from '../support/wire.js';

type Json = Record<string, unknown>;
const quiet = (): { error: (message: string) => void; warn: (message: string) => void } => ({ error: vi.fn<(message: string) => void>(), warn: vi.fn<(message: string) => void>() });

function source(): McpServer {
  const server = new McpServer({ name: 'src', version: '1.0.0', logger: quiet() });
  server.tool(
    'search',
    {
      description: 'Searches',
      annotations: { readOnlyHint: true },
      _meta: { tags: ['read'] },
      input: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'number' }, apiKey: { type: 'string' } }, required: ['q', 'apiKey'] },
    },
    (args) => JSON.stringify(args),
  );
  server.tool('drop', { description: 'Drops everything', annotations: { destructiveHint: true }, _meta: { tags: ['admin'] } }, () => 'dropped');
  server.prompt('summary', { description: 'Summarises', arguments: [{ name: 'topic', required: true }] }, (args) => `Summarise ${String(args?.['topic'])}`);
  server.resource('file:///a.txt', { name: 'a', mimeType: 'text/plain' }, () => 'A');
  server.resourceTemplate('item://{id}', { name: 'item', mimeType: 'text/plain' }, (_uri, vars) => `item ${String(vars['id'])}`);
  return server;
}

const resultOf = (response: Json): Json => response['result'] as Json;
const errorOf = (response: Json): Json => response['error'] as Json;
const names = (response: Json, field = 'tools'): unknown[] => (resultOf(response)[field] as Json[]).map((t) => t['name']);

async function served(provider: McpProvider<RequestContext>): Promise<ReturnType<typeof harness>> {
  const server = new McpServer({ name: 'top', version: '1.0.0', logger: quiet() });
  server.provide(provider);
  const h = harness(server);
  await h.initialize();
  return h;
}

describe('transformProvider', () => {
  it('renames a tool and reshapes its arguments: renamed, fixed (hidden), defaulted', async () => {
    const h = await served(
      transformProvider(source().asProvider(), {
        tools: { search: { name: 'find', description: 'Finds things', arguments: { q: { name: 'query', description: 'What to find' }, apiKey: { value: 'secret' }, limit: { default: 5 } } } },
      }),
    );
    const tools = resultOf(await h.request('tools/list'))['tools'] as Json[];
    const find = tools.find((t) => t['name'] === 'find')!;
    expect(find['description']).toBe('Finds things');
    expect(find['inputSchema']).toEqual({ type: 'object', properties: { query: { type: 'string', description: 'What to find' }, limit: { type: 'number', default: 5 } }, required: ['query'] });
    const called = resultOf(await h.request('tools/call', { name: 'find', arguments: { query: 'cats', apiKey: 'client-tries' } }));
    expect(JSON.parse((called['content'] as Json[])[0]!['text'] as string)).toEqual({ q: 'cats', limit: 5, apiKey: 'secret' });
    // The old name is gone.
    expect(errorOf(await h.request('tools/call', { name: 'search', arguments: { q: 'x' } }))['code']).toBe(-32602);
  });

  it('filters by name, tag and annotation (include and exclude), hiding from lists and calls', async () => {
    const byTag = await served(transformProvider(source().asProvider(), { exclude: { tags: ['admin'] } }));
    expect(names(await byTag.request('tools/list'))).toEqual(['search']);
    expect(errorOf(await byTag.request('tools/call', { name: 'drop', arguments: {} }))['code']).toBe(-32602);
    const readOnly = await served(transformProvider(source().asProvider(), { include: { annotations: { readOnlyHint: true } } }));
    expect(names(await readOnly.request('tools/list'))).toEqual(['search']);
    const byName = await served(transformProvider(source().asProvider(), { exclude: { names: ['search', 'summary', 'file:///a.txt'] } }));
    expect(names(await byName.request('tools/list'))).toEqual(['drop']);
    expect(names(await byName.request('prompts/list'), 'prompts')).toEqual([]);
    expect(resultOf(await byName.request('resources/list'))['resources']).toEqual([]);
    expect(errorOf(await byName.request('resources/read', { uri: 'file:///a.txt' }))['code']).toBe(-32002);
  });

  it('overrides titles and descriptions of prompts and resources, and renames a prompt', async () => {
    const h = await served(transformProvider(source().asProvider(), { prompts: { summary: { name: 'tldr', title: 'TL;DR' } }, resources: { 'file:///a.txt': { description: 'The letter A' } } }));
    expect(resultOf(await h.request('prompts/list'))['prompts']).toEqual([{ name: 'tldr', title: 'TL;DR', description: 'Summarises', arguments: [{ name: 'topic', required: true }] }]);
    expect((resultOf(await h.request('prompts/get', { name: 'tldr', arguments: { topic: 'x' } }))['messages'] as Json[]).length).toBe(1);
    expect(errorOf(await h.request('prompts/get', { name: 'summary', arguments: { topic: 'x' } }))['code']).toBe(-32602);
    expect((resultOf(await h.request('resources/list'))['resources'] as Json[])[0]).toMatchObject({ uri: 'file:///a.txt', description: 'The letter A' });
  });

  it('offers prompts and resources as tools, in both eras', async () => {
    const h = await served(transformProvider(source().asProvider(), { promptsAsTools: true, resourcesAsTools: true }));
    expect(names(await h.request('tools/list'))).toEqual(['search', 'drop', 'prompt_summary', 'list_resources', 'read_resource']);
    const prompt = resultOf(await h.request('tools/call', { name: 'prompt_summary', arguments: { topic: 'owls' } }));
    expect(prompt['content']).toEqual([{ type: 'text', text: 'Summarise owls' }]);
    const missing = resultOf(await h.request('tools/call', { name: 'prompt_summary', arguments: {} }));
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Missing required argument: topic' }] });
    const listed = resultOf(await h.request('tools/call', { name: 'list_resources', arguments: {} }));
    expect(listed['content']).toEqual([{ type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' }, { type: 'text', text: 'Templates: item://{id}' }]);
    // 2026-07-28: no session, the same tools.
    const top = new McpServer({ name: 'top', version: '1.0.0', logger: quiet() });
    top.provide(transformProvider(source().asProvider(), { resourcesAsTools: true }));
    const read = resultOf(await harness(top).request('tools/call', { name: 'read_resource', arguments: { uri: 'item://9' }, _meta: modernMeta() }));
    expect(read['content']).toEqual([{ type: 'resource', resource: { uri: 'item://9', mimeType: 'text/plain', text: 'item 9' } }]);
  });

  it('composes with mount: a transformed provider mounted under a namespace', async () => {
    const server = new McpServer({ name: 'top', version: '1.0.0', logger: quiet() });
    server.mount(transformProvider(source().asProvider(), { exclude: { tags: ['admin'] }, tools: { search: { name: 'find', arguments: { apiKey: { value: 'k' } } } } }), { namespace: 'lib' });
    const h = harness(server);
    await h.initialize();
    expect(names(await h.request('tools/list'))).toEqual(['lib_find']);
    const called = resultOf(await h.request('tools/call', { name: 'lib_find', arguments: { q: 'x' } }));
    expect(JSON.parse((called['content'] as Json[])[0]!['text'] as string)).toEqual({ q: 'x', apiKey: 'k' });
  });

  it('refuses bad options at once, naming the key', () => {
    const p = source().asProvider();
    expect(() => transformProvider(p, { exlude: {} } as never)).toThrow(/exlude.*exclude/s);
    expect(() => transformProvider(p, { tools: { search: { arguments: { q: { hidden: true } } } } } as never)).toThrow(/hidden.*hide/s);
    expect(() => transformProvider(p, { tools: { search: { arguments: { q: { name: 'x' }, limit: { name: 'x' } } } } })).toThrow(RegistrationError);
  });

  it('refuses hiding a required argument without a value or default, and an argument the tool lacks', () => {
    expect(() => transformProvider(source().asProvider(), { tools: { search: { arguments: { q: { hide: true } } } } })).toThrow('a required argument can be hidden only with a value or a default');
    expect(() => transformProvider(source().asProvider(), { tools: { search: { arguments: { nope: { default: 1 } } } } })).toThrow('the tool has no argument "nope" (it has "q", "limit", "apiKey")');
  });
});
