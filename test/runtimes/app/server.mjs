// The one end-to-end server every runtime serves (test/runtimes/runtimes.test.ts): a zod tool, a raw
// JSON Schema tool, progress, a resource, a prompt; legacy sessions on. Imported as a user imports mcpkit.
import { McpServer } from 'mcpkit';
import { createFetchHandler } from 'mcpkit/http';
import { z } from 'zod';

export function createHandler() {
  const server = new McpServer({ name: 'runtime-e2e', version: '1.0.0' });
  server.tool('add', { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => String(a + b));
  server.tool(
    'greet',
    { description: 'Greets someone', input: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false } },
    ({ name }) => `Hello, ${name}!`,
  );
  server.tool('steps', { description: 'Reports progress three times', input: { type: 'object' } }, async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) await ctx.progress(i, 3, `step ${i}`);
    return 'stepped';
  });
  server.resource('memo://one', { name: 'one', mimeType: 'text/plain' }, () => 'first memo');
  server.prompt('hello', { arguments: [{ name: 'who', required: true }] }, (args) => `Say hello to ${args.who}`);
  return createFetchHandler(server, { stateless: false });
}
