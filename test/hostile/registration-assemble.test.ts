/**
 * The second seed's assembleMcpServer: a provider tool that cannot work is an
 * assembly error naming the provider's tool, not a failure at call time.
 */
import { describe, expect, it } from 'vitest';
import { assembleMcpServer, McpAssemblyError, type McpToolDef } from '../../src/index.js';

const tool = (overrides: Partial<McpToolDef>): McpToolDef => ({
  name: 'run',
  description: 'd',
  inputSchema: { type: 'object' },
  handler: async () => Promise.resolve({ content: [] }),
  ...overrides,
});
const assemble = (def: McpToolDef, namespace = 'jobs'): unknown => assembleMcpServer([{ namespace, tools: [def] }]);

describe('assembleMcpServer refuses tools that cannot work', () => {
  it('a missing handler (plain JavaScript)', () => {
    expect(() => assemble(tool({ handler: undefined as never }))).toThrow(McpAssemblyError);
    expect(() => assemble(tool({ handler: undefined as never }))).toThrow(
      'Tool "jobs.run" (served as "jobs_run") has no handler: give it handler: async (args) => ({ content: [...] })',
    );
  });

  it('a non-object inputSchema', () => {
    expect(() => assemble(tool({ inputSchema: { type: 'string' } }))).toThrow(
      /^Tool "jobs\.run" \(served as "jobs_run"\): Tool "jobs_run": its input schema must describe an object \(type: "object" at the root; /,
    );
  });

  it('an invalid inputSchema', () => {
    expect(() => assemble(tool({ inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } }))).toThrow(
      'Tool "jobs.run" (served as "jobs_run"): Invalid JSON Schema: "type" at #/properties/a must be one of',
    );
  });

  it('a served name over 128 characters', () => {
    const namespace = 'n'.repeat(100);
    const name = 'm'.repeat(30);
    expect(() => assemble(tool({ name }), namespace)).toThrow(McpAssemblyError);
    expect(() => assemble(tool({ name }), namespace)).toThrow(`(131 characters): a tool name is 1 to 128 characters`);
  });

  it('valid tools still assemble and are served', async () => {
    const server = assembleMcpServer([{ namespace: 'jobs', tools: [tool({ handler: async () => Promise.resolve({ content: [{ type: 'text', text: 'ran' }] }) })] }]);
    expect(await server.tools.call('jobs_run', {})).toEqual({ content: [{ type: 'text', text: 'ran' }] });
  });
});
