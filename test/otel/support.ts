/** Test support for observability: one server with every kind of request, a stdio client over a stream pair, HTTP helpers. */
import { JsonRpcProtocolError } from '../../src/jsonrpc/errors.js';
import { McpServer, StdioTransport, ToolError, type Logger } from '../../src/index.js';
import { LineCollector, streamPair } from '../support/wire.js';

export type Json = Record<string, unknown>;
import { LEGACY } from '../support/revisions.js';

export { LEGACY };

/** A tool that answers, one that fails (isError), one that raises a protocol error, a prompt, a resource, an elicitation. */
export function observedServer(logger: Logger = { error: () => undefined }): McpServer {
  const server = new McpServer({ name: 'observed', version: '1.0.0', logger });
  const empty = { type: 'object', properties: {} } as const;
  server.tool('echo', { input: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => `echo: ${String(text)}`);
  server.tool('refuse', { input: empty }, () => {
    throw new ToolError('try a smaller number');
  });
  server.tool('strict', { input: empty }, () => {
    throw new JsonRpcProtocolError(-32050, 'Custom failure');
  });
  server.tool('ask', { input: empty }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { key: 'user_name' });
    return `Hi ${String(answer.content?.['name'])}`;
  });
  server.prompt('greet', { description: 'Greets' }, () => 'Hello there');
  server.prompt('broken', { description: 'Throws' }, () => {
    throw new Error('disk on fire');
  });
  server.resource('config://app', { name: 'config', mimeType: 'text/plain' }, () => 'debug=true');
  return server;
}

/** A legacy client on a StdioTransport over a PassThrough pair. */
export class StdioClient {
  readonly input = streamPair();
  readonly out: LineCollector;
  #seen = 0;

  constructor(readonly server: McpServer) {
    this.out = new LineCollector(this.input.output, () => LEGACY);
  }

  async start(): Promise<void> {
    await this.server.connect(new StdioTransport({ input: this.input.input, output: this.input.output }));
    await this.request(0, 'initialize', { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'otel-test', version: '1.0.0' } });
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  write(message: Json): void {
    this.input.input.write(`${JSON.stringify(message)}\n`);
  }

  /** The next message the server writes. */
  async next(): Promise<Json> {
    await this.out.waitFor(++this.#seen);
    return this.out.messages[this.#seen - 1] as Json;
  }

  /** Sends a request and answers the server's elicitations with `answer` until the response comes. */
  async request(id: number, method: string, params: Json = {}, answer: Json = { action: 'accept', content: { name: 'Ada' } }): Promise<Json> {
    this.write({ jsonrpc: '2.0', id, method, params });
    for (;;) {
      const message = await this.next();
      if (message['id'] === id && !('method' in message)) return message;
      if (message['method'] === 'elicitation/create') this.write({ jsonrpc: '2.0', id: message['id'], result: answer });
    }
  }

  async close(): Promise<void> {
    this.input.input.end();
    await this.server.stop();
  }
}
