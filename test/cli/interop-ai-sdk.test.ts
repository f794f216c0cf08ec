/**
 * The AI SDK's MCP client (@ai-sdk/mcp) spawns the demo from the documented
 * command, `mcpkit demo --stdio`, lists the tools and calls one, with no
 * parse error or other uncaught error reported.
 */
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { describe, expect, it } from 'vitest';
import { BIN } from './support.js';

describe('AI SDK MCP client against mcpkit demo --stdio', () => {
  it('lists and calls tools with no error', async () => {
    const errors: unknown[] = [];
    const client = await createMCPClient({
      transport: new Experimental_StdioMCPTransport({ command: process.execPath, args: [BIN, 'demo', '--stdio'], stderr: 'ignore' }),
      onUncaughtError: (error) => errors.push(error),
    });
    try {
      const tools = await client.tools();
      expect(Object.keys(tools)).toContain('greet');
      const result = await tools['greet']!.execute({ name: 'Ada' });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }], isError: false });
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
  });
});
