import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { client, connected, lastResponse } from '../support.js';

function make(): McpServer {
  const s = new McpServer({ name: 'prompts', version: '1.0.0', logger: { error: () => undefined } });
  s.prompt(
    'review',
    { title: 'Code review', description: 'Reviews code', arguments: [{ name: 'code', description: 'The code', required: true }, { name: 'style' }] },
    (args) => [
      { role: 'user', content: { type: 'text', text: `Review this${args['style'] ? ` in ${args['style']} style` : ''}:\n${args['code']}` } },
      { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
    ],
  );
  s.prompt('hello', {}, () => 'Hello!');
  return s;
}

describe('prompts', () => {
  it('lists prompts with their declared arguments', async () => {
    const c = await connected(make());
    expect(await c.listPrompts()).toEqual({
      prompts: [
        {
          name: 'review',
          title: 'Code review',
          description: 'Reviews code',
          arguments: [{ name: 'code', description: 'The code', required: true }, { name: 'style' }],
        },
        { name: 'hello' },
      ],
    });
  });

  it('gets messages with the arguments filled in', async () => {
    const c = await connected(make());
    expect(await c.getPrompt('review', { code: 'x = 1', style: 'terse' })).toEqual({
      description: 'Reviews code',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review this in terse style:\nx = 1' } },
        { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
      ],
    });
    expect(await c.getPrompt('hello')).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello!' } }] });
  });

  it('a missing required argument is -32602 naming it', async () => {
    const c = await connected(make());
    await c.getPrompt('review', { style: 'terse' }).catch(() => undefined);
    expect(lastResponse(c)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'Invalid params: Prompt "review" is missing required argument: code' },
    });
  });

  it('an unknown prompt and a non-string argument are -32602', async () => {
    const c = await connected(make());
    await c.getPrompt('nope').catch(() => undefined);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params: Unknown prompt: nope' } });
    await c.request('prompts/get', { name: 'review', arguments: { code: 5 } }).catch(() => undefined);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params: prompt argument "code" must be a string' } });
  });

  it('works the same on the 2026-07-28 path', async () => {
    const c = client(make(), { modern: true });
    const result = await c.getPrompt('hello');
    expect(result['messages']).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello!' } }]);
    expect(result['resultType']).toBe('complete');
  });
});
