/**
 * The server the foundation tests talk to: the seed's `echo` tool plus one
 * tool, resource and prompt for every error path, and gated tools for
 * ordering and concurrency tests (no wall-clock waits anywhere).
 */
import { vi } from 'vitest';
import { JsonRpcProtocolError } from '../../src/jsonrpc/errors.js';
import { ToolError } from '../../src/errors/classes.js';
import { McpServer, type McpServerConfig } from '../../src/server/server.js';
import { gate, type Gate } from './wire.js';

export const SERVER_INFO = { name: 'test-server', version: '1.0.0' };

/** What the test server's capabilities are (everything is registered). */
export const FULL_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

export interface TestServer {
  server: McpServer;
  logger: { error: ReturnType<typeof vi.fn>; warn: ReturnType<typeof vi.fn> };
  /** Labels of `record` calls, in the order the tool started running. */
  started: string[];
  /** Gates the `record` tool waits on, by label (created on first use). */
  gate(label: string): Gate;
}

export function makeServer(config: Partial<McpServerConfig> = {}): TestServer {
  const logger = { error: vi.fn(), warn: vi.fn() };
  const server = new McpServer({ ...SERVER_INFO, logger, ...config });
  const started: string[] = [];
  const gates = new Map<string, Gate>();
  const gateFor = (label: string): Gate => {
    let g = gates.get(label);
    if (g === undefined) gates.set(label, (g = gate()));
    return g;
  };

  // The seed's example tool, registered exactly as the seed does.
  server.tools.register({
    name: 'echo',
    description: 'Echoes the input back',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    async execute(input: { text: string }) {
      return { content: [{ type: 'text', text: input.text }] };
    },
  });
  server.tool('boom', { description: 'Throws a plain Error' }, () => {
    throw new Error('kaboom: /srv/secret/path');
  });
  server.tool('refuse', { description: 'Throws a ToolError' }, () => {
    throw new ToolError('try a smaller number');
  });
  server.tool('protocol', { description: 'Throws a JsonRpcProtocolError' }, () => {
    throw new JsonRpcProtocolError(-32050, 'Custom failure', { hint: 'retry later' });
  });
  server.tool(
    'record',
    { description: 'Records its label, then waits for the label gate when `wait` is set', input: { type: 'object', properties: { label: { type: 'string' }, wait: { type: 'boolean' } }, required: ['label'] } },
    async (args) => {
      const label = String(args['label']);
      started.push(label);
      if (args['wait'] === true) await gateFor(label).promise;
      return label;
    },
  );

  server.resource('mem://greeting', { name: 'greeting', mimeType: 'text/plain' }, () => 'hello');
  server.resource('mem://boom', { name: 'boom' }, () => {
    throw new Error('cannot open /srv/secret/file');
  });
  server.resource('mem://protocol', { name: 'protocol' }, () => {
    throw new JsonRpcProtocolError(-32051, 'Resource locked', { retry: true });
  });
  server.resourceTemplate('mem://items/{id}', { name: 'item', mimeType: 'text/plain' }, (_uri, vars) => `item ${String(vars['id'])}`);

  server.prompt('greet', { description: 'Greets someone', arguments: [{ name: 'name', required: true }] }, (args) => `Hello, ${args['name']}!`);
  server.prompt('boom', { description: 'Throws a plain Error' }, () => {
    throw new Error('prompt store at /srv/secret is down');
  });
  server.prompt('protocol', { description: 'Throws a JsonRpcProtocolError' }, () => {
    throw new JsonRpcProtocolError(-32052, 'Prompt disabled', { reason: 'maintenance' });
  });

  return { server, logger, started, gate: gateFor };
}
