/**
 * `mcpkit/testing` is public: resolve it the way a user's test would, through
 * package.json#exports (the built package), and use it on a server built from
 * the package too.
 */
import { describe, expect, it } from 'vitest';
import type * as Testing from '../../src/testing/index.js';
import type * as Mcpkit from '../../src/index.js';

// Variables keep TypeScript from resolving the specifiers before dist exists.
const TESTING = 'mcpkit/testing';
const ROOT = 'mcpkit';

describe('mcpkit/testing', () => {
  it('is exported by the package and drives a server built from it', async () => {
    const { createTestClient, TestClientError } = (await import(TESTING)) as typeof Testing;
    const { McpServer, ToolError } = (await import(ROOT)) as typeof Mcpkit;
    const server = new McpServer({ name: 'exported', version: '1.0.0' });
    server.tool('hi', {}, () => {
      throw new ToolError('nope');
    });
    const client = createTestClient(server);
    const init = await client.initialize();
    expect(init['serverInfo']).toEqual({ name: 'exported', version: '1.0.0' });
    expect(await client.callTool('hi')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
    const error = await client.getPrompt('missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestClientError);
    expect((error as InstanceType<typeof TestClientError>).code).toBe(-32601);
    client.close();
  });
});
