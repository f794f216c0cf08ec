/**
 * A mounted server driven by the official SDK clients over Streamable HTTP:
 * v1 (@modelcontextprotocol/sdk, a 2025-11-25 session: lists, calls, reads,
 * prompts, completion, subscriptions and list changes through the mount) and
 * v2 (@modelcontextprotocol/client pinned to 2026-07-28, no session).
 */
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServer } from '../../src/index.js';
import { startNode, type TestServer } from '../http/support.js';
import { eventually } from '../support/eventually.js';

let http: TestServer | undefined;
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await http?.close();
  http = undefined;
});

const quiet = { error: vi.fn(), warn: vi.fn() };

function composed(): { server: McpServer; docs: McpServer } {
  const docs = new McpServer({ name: 'docs', version: '1.0.0', logger: quiet });
  docs.tool('echo', { description: 'Echoes', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, (args) => `docs:${String(args['text'])}`);
  docs.resourceTemplate('note://{id}', { name: 'note', mimeType: 'text/plain', complete: { id: (v) => ['n1', 'n2'].filter((x) => x.startsWith(v)) } }, (_uri, vars) => `note ${String(vars['id'])}`);
  docs.prompt('greet', { arguments: [{ name: 'who', required: true }] }, (args) => `Hello ${String(args?.['who'])}`);
  const server = new McpServer({ name: 'gateway', version: '1.0.0', logger: quiet });
  server.tool('own', {}, () => 'own');
  server.mount(docs, { namespace: 'docs' });
  return { server, docs };
}

const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]?.text ?? '';

describe('a mount through the official SDK clients', () => {
  it('v1 (2025-11-25 session): lists, calls, reads, prompts, completes, and hears namespaced updates and list changes', async () => {
    const { server, docs } = composed();
    http = await startNode(server);
    const client = new Client({ name: 'v1', version: '1.0.0' });
    clients.push(client);
    const updates: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['own', 'docs_echo']);
    expect(textOf(await client.callTool({ name: 'docs_echo', arguments: { text: 'v1' } }))).toBe('docs:v1');
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['docs+note://{id}']);
    expect((await client.readResource({ uri: 'docs+note://7' })).contents).toEqual([{ uri: 'docs+note://7', mimeType: 'text/plain', text: 'note 7' }]);
    expect((await client.getPrompt({ name: 'docs_greet', arguments: { who: 'Ada' } })).messages[0]?.content).toEqual({ type: 'text', text: 'Hello Ada' });
    expect((await client.complete({ ref: { type: 'ref/resource', uri: 'docs+note://{id}' }, argument: { name: 'id', value: 'n' } })).completion.values).toEqual(['n1', 'n2']);
    await client.subscribeResource({ uri: 'docs+note://7' });
    // A standalone GET stream carries notifications outside requests: wait until the server has it.
    await eventually(async () => {
      await docs.notifyResourceUpdated('note://7');
      return updates.length > 0;
    });
    expect(updates[0]).toBe('docs+note://7');
    docs.tool('late', {}, () => 'late');
    await eventually(() => listChanged > 0);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['own', 'docs_echo', 'docs_late']);
    await expect(client.callTool({ name: 'docs_missing', arguments: {} })).rejects.toThrow(/-32602|not found/i);
  });

  it('v2 pinned to 2026-07-28 (no session): lists, calls and reads through the mount', async () => {
    const { server } = composed();
    http = await startNode(server);
    const client = new ClientV2({ name: 'v2', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    clients.push(client);
    await client.connect(new StreamableV2(new URL(http.url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['own', 'docs_echo']);
    expect(textOf(await client.callTool({ name: 'docs_echo', arguments: { text: 'v2' } }))).toBe('docs:v2');
    expect((await client.readResource({ uri: 'docs+note://3' })).contents).toEqual([{ uri: 'docs+note://3', mimeType: 'text/plain', text: 'note 3' }]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['docs_greet']);
  });
});
