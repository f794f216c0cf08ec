import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { expectValidWire } from '../../support/wire-schema.js';

function server(): McpServer {
  const s = new McpServer({ name: 'downgrade', version: '1.0.0' });
  s.tool('media', { description: 'audio and a link' }, () => ({
    content: [
      { type: 'text', text: 'here' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
    ],
  }));
  s.prompt('linked', { description: 'a prompt with a link' }, () => [{ role: 'user', content: { type: 'resource_link', uri: 'file:///b.txt', name: 'b' } }]);
  return s;
}

async function session(version: string) {
  const connection = server().openConnection();
  await connection.handleMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  return connection;
}

describe('content older revisions cannot parse', () => {
  it('2024-11-05: audio and resource links become text blocks saying what they were', async () => {
    const c = await session('2024-11-05');
    const call = await c.handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'media' } });
    expect(call).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [
          { type: 'text', text: 'here' },
          { type: 'text', text: "[audio content (audio/wav) not shown: this client's protocol revision has no audio]" },
          { type: 'text', text: '[resource a: file:///a.txt]' },
        ],
      },
    });
    expectValidWire(call, '2024-11-05', 'tools/call');
    const prompt = await c.handleMessage({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'linked' } });
    expect(prompt).toEqual({
      jsonrpc: '2.0', id: 2,
      result: { description: 'a prompt with a link', messages: [{ role: 'user', content: { type: 'text', text: '[resource b: file:///b.txt]' } }] },
    });
    expectValidWire(prompt, '2024-11-05', 'prompts/get');
  });

  it('2025-03-26 keeps audio but not resource links', async () => {
    const c = await session('2025-03-26');
    const call = (await c.handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'media' } })) as { result: { content: { type: string }[] } };
    expect(call.result.content.map((b) => b.type)).toEqual(['text', 'audio', 'text']);
    expectValidWire(call, '2025-03-26', 'tools/call');
  });

  it.each(['2025-06-18', '2025-11-25'])('%s gets the content as the tool returned it', async (version) => {
    const c = await session(version);
    const call = (await c.handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'media' } })) as { result: { content: { type: string }[] } };
    expect(call.result.content.map((b) => b.type)).toEqual(['text', 'audio', 'resource_link']);
    expectValidWire(call, version, 'tools/call');
  });
});
