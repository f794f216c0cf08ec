/**
 * The seed registries: register/unregister/has/get/list plus one dispatch
 * method each, typed errors, registration-order listing, change events.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  DuplicateRegistrationError,
  McpPromptArgumentError,
  McpPromptNotFoundError,
  McpResourceNotFoundError,
  McpToolNotFoundError,
} from '../../src/errors/classes.js';
import type { RegistryChange } from '../../src/registries/events.js';
import { McpPromptRegistry } from '../../src/registries/prompts.js';
import { McpResourceRegistry } from '../../src/registries/resources.js';
import { McpToolRegistry } from '../../src/registries/tools.js';
import type { McpPrompt, McpResource, McpTool } from '../../src/registries/types.js';
import { makeServer } from '../support/servers.js';
import { harness } from '../support/wire.js';

function tool(name: string, extra: Partial<McpTool<{ text?: string }>> = {}): McpTool<{ text?: string }> {
  return { name, execute: async (input) => ({ content: [{ type: 'text', text: `${name}:${input.text ?? ''}` }] }), ...extra };
}

function resource(uri: string, text = uri): McpResource {
  return { uri, name: uri, read: async () => ({ uri, text }) };
}

function prompt(name: string, extra: Partial<McpPrompt> = {}): McpPrompt {
  return {
    name,
    get: async (args) => [{ role: 'user', content: { type: 'text', text: `${name}(${JSON.stringify(args ?? {})})` } }],
    ...extra,
  };
}

function recordChanges(registry: { onChange(listener: (change: RegistryChange) => void): () => void }): { changes: RegistryChange[]; off: () => void } {
  const changes: RegistryChange[] = [];
  const off = registry.onChange((change) => changes.push(change));
  return { changes, off };
}

describe('McpToolRegistry', () => {
  it('registers, finds, lists in registration order, calls and unregisters', async () => {
    const registry = new McpToolRegistry();
    const [b, a, c] = [tool('b'), tool('a'), tool('c')];
    registry.register(b);
    registry.register(a);
    registry.register(c);
    expect(registry.has('a')).toBe(true);
    expect(registry.has('z')).toBe(false);
    expect(registry.get('a')).toBe(a);
    expect(registry.get('z')).toBeUndefined();
    expect(registry.list().map((t) => t.name)).toEqual(['b', 'a', 'c']);
    expect(await registry.call('a', { text: 'x' })).toStrictEqual({ content: [{ type: 'text', text: 'a:x' }] });
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.has('a')).toBe(false);
    expect(registry.list().map((t) => t.name)).toEqual(['b', 'c']);
    registry.register(tool('a'));
    expect(registry.list().map((t) => t.name)).toEqual(['b', 'c', 'a']);
  });

  it('throws DuplicateRegistrationError on a second registration of a name, keeping the first', () => {
    const registry = new McpToolRegistry();
    const first = tool('dup');
    registry.register(first);
    const attempt = (): void => registry.register(tool('dup'));
    expect(attempt).toThrow(DuplicateRegistrationError);
    expect(attempt).toThrow('Tool "dup" is already registered');
    expect(registry.get('dup')).toBe(first);
    expect(registry.list()).toHaveLength(1);
  });

  it('rejects a tool without a usable name at registration', () => {
    const registry = new McpToolRegistry();
    expect(() => registry.register(tool(''))).toThrow(TypeError);
    expect(registry.size).toBe(0);
  });

  it('throws McpToolNotFoundError for an unknown tool', async () => {
    const registry = new McpToolRegistry();
    const error = await registry.call('ghost', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpToolNotFoundError);
    expect((error as McpToolNotFoundError).toolName).toBe('ghost');
    expect((error as Error).message).toBe('Unknown tool: ghost');
  });

  it('passes the tool’s own errors through untouched (the protocol decides their wire shape)', async () => {
    const registry = new McpToolRegistry();
    const failure = new Error('tool failed');
    registry.register({ name: 'f', execute: () => Promise.reject(failure) });
    await expect(registry.call('f', {})).rejects.toBe(failure);
  });

  it('emits added / removed change events, and none after unsubscribing', () => {
    const registry = new McpToolRegistry();
    const { changes, off } = recordChanges(registry);
    registry.register(tool('x'));
    registry.register(tool('y'));
    registry.unregister('x');
    registry.unregister('nope');
    expect(changes).toEqual([
      { type: 'added', key: 'x' },
      { type: 'added', key: 'y' },
      { type: 'removed', key: 'x' },
    ]);
    off();
    registry.register(tool('z'));
    expect(changes).toHaveLength(3);
  });

  it('does not let a throwing listener break registration or other listeners', () => {
    const registry = new McpToolRegistry();
    const later = vi.fn();
    registry.onChange(() => {
      throw new Error('bad listener');
    });
    registry.onChange(later);
    expect(() => registry.register(tool('x'))).not.toThrow();
    expect(registry.has('x')).toBe(true);
    expect(later).toHaveBeenCalledWith({ type: 'added', key: 'x' });
  });

  it('does not emit for a failed duplicate registration', () => {
    const registry = new McpToolRegistry();
    registry.register(tool('x'));
    const { changes } = recordChanges(registry);
    expect(() => registry.register(tool('x'))).toThrow(DuplicateRegistrationError);
    expect(changes).toEqual([]);
  });
});

describe('McpResourceRegistry', () => {
  it('registers by URI, lists in registration order, reads and unregisters', async () => {
    const registry = new McpResourceRegistry();
    registry.register(resource('mem://b', 'bee'));
    registry.register(resource('mem://a', 'ay'));
    expect(registry.has('mem://a')).toBe(true);
    expect(registry.get('mem://a')?.name).toBe('mem://a');
    expect(registry.list().map((r) => r.uri)).toEqual(['mem://b', 'mem://a']);
    expect(await registry.read('mem://a')).toStrictEqual({ uri: 'mem://a', text: 'ay' });
    expect(registry.unregister('mem://a')).toBe(true);
    expect(registry.unregister('mem://a')).toBe(false);
    expect(registry.list().map((r) => r.uri)).toEqual(['mem://b']);
  });

  it('throws DuplicateRegistrationError for a URI registered twice', () => {
    const registry = new McpResourceRegistry();
    registry.register(resource('mem://x'));
    expect(() => registry.register(resource('mem://x'))).toThrow(DuplicateRegistrationError);
    expect(() => registry.register(resource('mem://x'))).toThrow('Resource "mem://x" is already registered');
  });

  it('throws McpResourceNotFoundError for an unknown URI', async () => {
    const registry = new McpResourceRegistry();
    const error = await registry.read('mem://ghost').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpResourceNotFoundError);
    expect((error as McpResourceNotFoundError).uri).toBe('mem://ghost');
  });

  it('serves template URIs, a static resource winning over a matching template', async () => {
    const registry = new McpResourceRegistry();
    registry.templates.register({ uriTemplate: 'mem://items/{id}', name: 'item', read: (uri, vars) => ({ uri, text: `template ${String(vars['id'])}` }) });
    registry.register(resource('mem://items/special', 'static'));
    expect(await registry.read('mem://items/7')).toStrictEqual({ uri: 'mem://items/7', text: 'template 7' });
    expect(await registry.read('mem://items/special')).toStrictEqual({ uri: 'mem://items/special', text: 'static' });
    expect(() => registry.templates.register({ uriTemplate: 'mem://items/{id}', name: 'again', read: () => ({ text: '' }) })).toThrow(DuplicateRegistrationError);
  });

  it('emits change events for resources and templates separately', () => {
    const registry = new McpResourceRegistry();
    const resources = recordChanges(registry);
    const templates = recordChanges(registry.templates);
    registry.register(resource('mem://a'));
    registry.templates.register({ uriTemplate: 'mem://t/{x}', name: 't', read: () => ({ text: '' }) });
    registry.unregister('mem://a');
    expect(resources.changes).toEqual([
      { type: 'added', key: 'mem://a' },
      { type: 'removed', key: 'mem://a' },
    ]);
    expect(templates.changes).toEqual([{ type: 'added', key: 'mem://t/{x}' }]);
  });
});

describe('McpPromptRegistry', () => {
  it('registers, lists in registration order, gets messages and unregisters', async () => {
    const registry = new McpPromptRegistry();
    registry.register(prompt('second'));
    registry.register(prompt('first'));
    expect(registry.list().map((p) => p.name)).toEqual(['second', 'first']);
    expect(registry.has('first')).toBe(true);
    expect(registry.get('nope')).toBeUndefined();
    expect(await registry.getMessages('first', { a: '1' })).toStrictEqual([{ role: 'user', content: { type: 'text', text: 'first({"a":"1"})' } }]);
    expect(registry.unregister('first')).toBe(true);
    expect(registry.has('first')).toBe(false);
  });

  it('throws DuplicateRegistrationError for a name registered twice', () => {
    const registry = new McpPromptRegistry();
    registry.register(prompt('p'));
    expect(() => registry.register(prompt('p'))).toThrow(DuplicateRegistrationError);
  });

  it('throws McpPromptNotFoundError for an unknown name', async () => {
    const registry = new McpPromptRegistry();
    const error = await registry.getMessages('ghost').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpPromptNotFoundError);
    expect((error as McpPromptNotFoundError).promptName).toBe('ghost');
  });

  it('checks declared required arguments before running the prompt', async () => {
    const registry = new McpPromptRegistry();
    const get = vi.fn(async () => []);
    registry.register({ name: 'p', arguments: [{ name: 'a', required: true }, { name: 'b', required: true }, { name: 'c' }], get });
    const error = await registry.getMessages('p', { b: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpPromptArgumentError);
    expect((error as McpPromptArgumentError).missing).toEqual(['a']);
    expect(get).not.toHaveBeenCalled();
    await registry.getMessages('p', { a: '1', b: '2' });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('emits change events', () => {
    const registry = new McpPromptRegistry();
    const { changes } = recordChanges(registry);
    registry.register(prompt('p'));
    registry.unregister('p');
    expect(changes).toEqual([
      { type: 'added', key: 'p' },
      { type: 'removed', key: 'p' },
    ]);
  });
});

describe('change events reach clients', () => {
  it('turn into one list_changed notification per list for an initialized legacy connection', async () => {
    const { server } = makeServer();
    const h = harness(server);
    await h.initialize('2025-06-18');
    server.tool('late', {}, () => 'late');
    server.tool('later', {}, () => 'later');
    server.prompt('late', {}, () => 'late');
    await vi.waitFor(() => expect(h.sent).toHaveLength(2));
    expect(h.sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' },
    ]);
    const tools = ((await h.request('tools/list'))['result'] as { tools: { name: string }[] }).tools;
    expect(tools.slice(-2).map((t) => t.name)).toEqual(['late', 'later']);
  });
});
