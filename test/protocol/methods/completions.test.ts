import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { connected, lastResponse } from '../support.js';

const LANGUAGES = ['go', 'haskell', 'javascript', 'java', 'python', 'typescript'];

function make(): McpServer {
  const s = new McpServer({ name: 'complete', version: '1.0.0' });
  s.prompt('translate', {
    arguments: [{ name: 'from' }, { name: 'to' }],
    complete: {
      from: (value) => LANGUAGES.filter((l) => l.startsWith(value)),
      // Completion of `to` sees the arguments already given: it never offers `from` again.
      to: (value, { arguments: args }) => LANGUAGES.filter((l) => l.startsWith(value) && l !== args['from']),
    },
  }, () => 'translate');
  s.resourceTemplate('numbers://{n}', {
    complete: { n: (value) => Array.from({ length: 250 }, (_, i) => String(i)).filter((v) => v.startsWith(value)) },
  }, (_uri, vars) => String(vars['n']));
  return s;
}

describe('completion/complete', () => {
  it('completes prompt arguments', async () => {
    const c = await connected(make());
    expect(await c.complete({ type: 'ref/prompt', name: 'translate' }, { name: 'from', value: 'ja' })).toEqual({
      completion: { values: ['javascript', 'java'], total: 2, hasMore: false },
    });
  });

  it('passes the context arguments to the completer', async () => {
    const c = await connected(make());
    expect(await c.complete({ type: 'ref/prompt', name: 'translate' }, { name: 'to', value: 'j' }, { arguments: { from: 'java' } })).toEqual({
      completion: { values: ['javascript'], total: 1, hasMore: false },
    });
  });

  it('caps values at 100 and reports total and hasMore', async () => {
    const c = await connected(make());
    const result = await c.complete({ type: 'ref/resource', uri: 'numbers://{n}' }, { name: 'n', value: '' });
    const completion = result['completion'] as { values: string[]; total: number; hasMore: boolean };
    expect(completion.values).toHaveLength(100);
    expect(completion.values[0]).toBe('0');
    expect(completion.values[99]).toBe('99');
    expect(completion.total).toBe(250);
    expect(completion.hasMore).toBe(true);
  });

  it('an argument without a completer completes to nothing; an unknown prompt is -32602', async () => {
    const c = await connected(make());
    expect(await c.complete({ type: 'ref/prompt', name: 'translate' }, { name: 'other', value: 'x' })).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
    await c.complete({ type: 'ref/prompt', name: 'missing' }, { name: 'from', value: '' }).catch(() => undefined);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params: Unknown prompt: missing' } });
  });

  it('a disabled prompt or template completes nothing: it is unknown until enabled again', async () => {
    const s = make();
    const t = s.resourceTemplate('letters://{l}', { complete: { l: () => ['a', 'b'] } }, () => 'x');
    const p = s.prompt('pick', { arguments: [{ name: 'l' }], complete: { l: () => ['a'] } }, () => 'p');
    const c = await connected(s);
    t.disable();
    p.disable();
    await c.complete({ type: 'ref/resource', uri: 'letters://{l}' }, { name: 'l', value: '' }).catch(() => undefined);
    expect(lastResponse(c)).toMatchObject({ error: { code: -32002, message: 'Resource not found: letters://{l}' } });
    await c.complete({ type: 'ref/prompt', name: 'pick' }, { name: 'l', value: '' }).catch(() => undefined);
    expect(lastResponse(c)).toMatchObject({ error: { code: -32602, message: 'Invalid params: Unknown prompt: pick' } });
    t.enable();
    expect(await c.complete({ type: 'ref/resource', uri: 'letters://{l}' }, { name: 'l', value: '' })).toEqual({
      completion: { values: ['a', 'b'], total: 2, hasMore: false },
    });
  });
});
