import { describe, expect, it } from 'vitest';
import type { ElicitFormParams } from '../../../src/wire-types/index.js';
import { McpServer, type McpServerConfig } from '../../../src/server/server.js';
import type { TestClientError, TestClientOptions } from '../../../src/testing/index.js';
import { client, connected, tick } from '../support.js';

const FORM: ElicitFormParams = {
  message: 'Configure the deployment',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 1, default: 'web' },
      replicas: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
      public: { type: 'boolean', default: false },
      region: { type: 'string', enum: ['eu', 'us'], default: 'eu' },
      tier: { type: 'string', oneOf: [{ const: 'free', title: 'Free' }, { const: 'pro', title: 'Pro' }], default: 'free' },
      features: { type: 'array', items: { type: 'string', enum: ['logs', 'metrics', 'traces'] }, default: ['logs'] },
      alerts: { type: 'array', items: { anyOf: [{ const: 'mail', title: 'E-mail' }, { const: 'sms', title: 'SMS' }] } },
      size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
    },
    required: ['name', 'region'],
  },
};

const SAMPLE_TOOLS = [{ name: 'get_weather', description: 'Weather by city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];

function make(config: Pick<McpServerConfig, 'limits'> = {}) {
  const server = new McpServer({ name: 'asks', version: '1.0.0', logger: { error: () => undefined }, ...config });
  const seen: { childSignals: AbortSignal[] } = { childSignals: [] };
  server.tool('deploy', {}, async (_args, ctx) => JSON.stringify(await ctx.elicit(FORM)));
  server.tool('login', {}, async (_args, ctx) =>
    JSON.stringify(await ctx.elicit({ mode: 'url', message: 'Sign in to continue', url: 'https://auth.example.com/login?s=1', elicitationId: 'el-1' })),
  );
  server.tool('ask-model', {}, async (_args, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }], maxTokens: 10, systemPrompt: 'Be brief' });
    return JSON.stringify(answer);
  });
  server.tool('ask-model-with-tools', {}, async (_args, ctx) => {
    const answer = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } }],
      maxTokens: 100,
      tools: SAMPLE_TOOLS,
      toolChoice: { mode: 'auto' },
    });
    return JSON.stringify(answer);
  });
  server.tool('roots', {}, async (_args, ctx) => JSON.stringify(await ctx.listRoots()));
  server.tool('both', {}, async (_args, ctx) => {
    const choice = await ctx.elicit({ message: 'Pick', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } });
    const roots = await ctx.listRoots();
    return `${String(choice.content?.['n'])} ${roots.roots.length}`;
  });
  server.tool('guarded', {}, async (_args, ctx) => {
    try {
      await ctx.elicit({ message: 'Hello?', requestedSchema: { type: 'object', properties: {} } });
      return 'answered';
    } catch (error) {
      return `failed: ${(error as Error).message}`;
    }
  });
  return { server, seen };
}

const ALL: TestClientOptions = {
  capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: { listChanged: true } },
  onElicit: (params) =>
    params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { name: 'api', region: 'us', features: ['logs', 'traces'], n: 3 } },
  onSample: (params) =>
    params.tools === undefined
      ? { role: 'assistant', content: { type: 'text', text: '4' }, model: 'test-model', stopReason: 'endTurn' }
      : { role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Oslo' } }], model: 'test-model', stopReason: 'toolUse' },
  onListRoots: () => ({ roots: [{ uri: 'file:///home/me/project', name: 'project' }] }),
};

const requestsOf = (c: { messages: readonly unknown[] }): Record<string, unknown>[] =>
  c.messages.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && 'method' in m && 'id' in m);

describe('elicitation (legacy)', () => {
  it('form mode: the server asks with defaults and every enum shape, and gets the answer', async () => {
    const c = await connected(make().server, ALL);
    const result = await c.callTool('deploy');
    expect(requestsOf(c)).toEqual([{ jsonrpc: '2.0', id: 'mcpkit-1', method: 'elicitation/create', params: FORM }]);
    expect(result).toEqual({ content: [{ type: 'text', text: '{"action":"accept","content":{"name":"api","region":"us","features":["logs","traces"],"n":3}}' }] });
  });

  it('URL mode', async () => {
    const c = await connected(make().server, ALL);
    const result = await c.callTool('login');
    expect(requestsOf(c)).toEqual([
      {
        jsonrpc: '2.0',
        id: 'mcpkit-1',
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Sign in to continue', url: 'https://auth.example.com/login?s=1', elicitationId: 'el-1' },
      },
    ]);
    expect(result['content']).toEqual([{ type: 'text', text: '{"action":"accept"}' }]);
  });

  it('decline and cancel reach the tool', async () => {
    const { server } = make();
    const declined = await connected(server, { ...ALL, onElicit: () => ({ action: 'decline' }) });
    expect((await declined.callTool('deploy'))['content']).toEqual([{ type: 'text', text: '{"action":"decline"}' }]);
    const cancelled = await connected(server, { ...ALL, onElicit: () => ({ action: 'cancel' }) });
    expect((await cancelled.callTool('deploy'))['content']).toEqual([{ type: 'text', text: '{"action":"cancel"}' }]);
  });

  it('a client error answer surfaces in the tool', async () => {
    const c = await connected(make().server, {
      ...ALL,
      onElicit: () => {
        throw new Error('user closed the dialog');
      },
    });
    expect((await c.callTool('guarded'))['content']).toEqual([
      { type: 'text', text: 'failed: The client answered elicitation/create with error -32603: user closed the dialog' },
    ]);
  });
});

describe('sampling and roots (legacy)', () => {
  it('sampling/createMessage round-trips', async () => {
    const c = await connected(make().server, ALL);
    const result = await c.callTool('ask-model');
    expect(requestsOf(c)).toEqual([
      {
        jsonrpc: '2.0',
        id: 'mcpkit-1',
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }], maxTokens: 10, systemPrompt: 'Be brief' },
      },
    ]);
    expect(JSON.parse((result['content'] as { text: string }[])[0]!.text)).toEqual({
      role: 'assistant',
      content: { type: 'text', text: '4' },
      model: 'test-model',
      stopReason: 'endTurn',
    });
  });

  it('sampling with tools sends them and gets tool_use back', async () => {
    const c = await connected(make().server, ALL);
    const result = await c.callTool('ask-model-with-tools');
    expect(requestsOf(c)[0]?.['params']).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } }],
      maxTokens: 100,
      tools: SAMPLE_TOOLS,
      toolChoice: { mode: 'auto' },
    });
    expect(JSON.parse((result['content'] as { text: string }[])[0]!.text)).toMatchObject({
      content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Oslo' } }],
      stopReason: 'toolUse',
    });
  });

  it('roots/list round-trips', async () => {
    const c = await connected(make().server, ALL);
    const result = await c.callTool('roots');
    expect(requestsOf(c)).toEqual([{ jsonrpc: '2.0', id: 'mcpkit-1', method: 'roots/list', params: {} }]);
    expect(result['content']).toEqual([{ type: 'text', text: '{"roots":[{"uri":"file:///home/me/project","name":"project"}]}' }]);
  });

  it('notifications/roots/list_changed is delivered as an event', async () => {
    const { server } = make();
    const events: unknown[] = [];
    const off = server.onRootsListChanged((info) => events.push(info));
    const c = await connected(server, ALL);
    await c.notify('notifications/roots/list_changed');
    expect(events).toEqual([{ sessionId: undefined }]);
    off();
    await c.notify('notifications/roots/list_changed');
    expect(events).toHaveLength(1);
  });
});

describe('capability checks', () => {
  const cases: [string, TestClientOptions['capabilities'], string, string][] = [
    ['elicitation', {}, 'deploy', 'elicitation (form mode)'],
    ['URL elicitation', { elicitation: { form: {} } }, 'login', 'elicitation (url mode)'],
    ['sampling', {}, 'ask-model', 'sampling'],
    ['sampling with tools', { sampling: {} }, 'ask-model-with-tools', 'sampling with tools'],
    ['roots', {}, 'roots', 'roots'],
  ];
  for (const [label, capabilities, tool, what] of cases) {
    it(`${label} without the client capability is a clear error and nothing is sent`, async () => {
      const c = await connected(make().server, { ...ALL, capabilities: capabilities ?? {} });
      const error = (await c.callTool(tool).catch((e: unknown) => e)) as TestClientError;
      expect(error.code).toBe(-32021);
      expect(error.detail).toBe(`This request needs the client capability "${what}", which the client did not declare`);
      expect(requestsOf(c)).toEqual([]);
    });
  }
});

describe('malformed client answers', () => {
  it('are refused with a clear error instead of reaching the tool as results', async () => {
    const server = new McpServer({ name: 'asks', version: '1.0.0' });
    server.tool('ask', {}, async (_args, ctx) => {
      const outcomes: string[] = [];
      for (const ask of [() => ctx.sample({ messages: [], maxTokens: 1 }), () => ctx.elicit({ message: 'x', requestedSchema: { type: 'object', properties: {} } }), () => ctx.listRoots()]) {
        outcomes.push(await ask().then((r) => `ok ${JSON.stringify(r)}`, (e: unknown) => (e as Error).message));
      }
      return outcomes.join('\n');
    });
    const c = await connected(server, {
      ...ALL,
      onSample: () => ({}) as never,
      onElicit: () => ({ action: 'maybe' }) as never,
      onListRoots: () => ({ roots: 'none' }) as never,
    });
    expect((await c.callTool('ask'))['content']).toEqual([
      {
        type: 'text',
        text: [
          'The client answered sampling/createMessage with a malformed result',
          'The client answered elicitation/create with a malformed result',
          'The client answered roots/list with a malformed result',
        ].join('\n'),
      },
    ]);
  });
});

describe('sampling includeContext', () => {
  const build = (): McpServer => {
    const server = new McpServer({ name: 'asks', version: '1.0.0' });
    server.tool('with-context', {}, async (_args, ctx) => {
      const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5, includeContext: 'thisServer' });
      return JSON.stringify(answer.content);
    });
    return server;
  };

  it('from 2025-11-25 needs the client to declare sampling.context', async () => {
    const without = await connected(build(), { ...ALL, capabilities: { sampling: {} } });
    const error = (await without.callTool('with-context').catch((e: unknown) => e)) as TestClientError;
    expect(error.code).toBe(-32021);
    expect(error.detail).toBe('This request needs the client capability "sampling with context", which the client did not declare');
    expect(error.data).toEqual({ requiredCapabilities: { sampling: { context: {} } } });
    const declared = await connected(build(), { ...ALL, capabilities: { sampling: { context: {} } } });
    expect((await declared.callTool('with-context'))['content']).toEqual([{ type: 'text', text: '{"type":"text","text":"4"}' }]);
  });

  it('before 2025-11-25 (no such capability yet) it is sent as asked', async () => {
    const c = await connected(build(), { ...ALL, capabilities: { sampling: {} }, protocolVersion: '2025-06-18' });
    expect((await c.callTool('with-context'))['content']).toEqual([{ type: 'text', text: '{"type":"text","text":"4"}' }]);
    expect(requestsOf(c)[0]?.['params']).toMatchObject({ includeContext: 'thisServer' });
  });
});

describe('timeouts and cancellation of server→client requests', () => {
  it('an unanswered request times out with a clear error', async () => {
    const c = await connected(make({ limits: { clientRequestTimeoutMs: 30 } }).server, { ...ALL, onElicit: () => new Promise(() => undefined) });
    expect((await c.callTool('guarded'))['content']).toEqual([{ type: 'text', text: 'failed: The client did not answer elicitation/create within 30 ms' }]);
    // The server stops waiting and tells the client so (lifecycle: timeouts SHOULD be followed by a cancellation).
    await tick();
    expect(c.notifications('notifications/cancelled')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'mcpkit-1', reason: 'Timed out after 30 ms' } },
    ]);
  });

  it('cancelling the parent request cancels the pending client request', async () => {
    const signals: AbortSignal[] = [];
    let asked: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => (asked = resolve));
    const c = await connected(make().server, {
      ...ALL,
      onElicit: (_params, { signal }) => {
        signals.push(signal);
        asked();
        return new Promise(() => undefined);
      },
    });
    const controller = new AbortController();
    const call = c.callTool('guarded', {}, { signal: controller.signal });
    await pending;
    controller.abort('stop');
    expect(((await call.catch((e: unknown) => e)) as TestClientError).code).toBe(0);
    await tick();
    expect(c.notifications('notifications/cancelled')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'mcpkit-1', reason: 'The originating request was cancelled' } },
    ]);
    expect(signals[0]?.aborted).toBe(true);
    // The cancelled tools/call (id 2) got no response.
    await c.settled();
    expect(c.messages.filter((m) => 'id' in m && m.id === 2)).toEqual([]);
  });
});

describe('a parent timeout', () => {
  it('cancels the pending client request and answers the tool timeout', async () => {
    const server = new McpServer({ name: 'asks', version: '1.0.0' });
    server.tool('slow-ask', { timeoutMs: 40 }, async (_args, ctx) => JSON.stringify(await ctx.elicit({ message: 'Hi?', requestedSchema: { type: 'object', properties: {} } })));
    const signals: AbortSignal[] = [];
    const c = await connected(server, {
      ...ALL,
      onElicit: (_params, { signal }) => {
        signals.push(signal);
        return new Promise(() => undefined);
      },
    });
    expect(await c.callTool('slow-ask')).toEqual({
      content: [{ type: 'text', text: 'Request timed out: tools/call did not finish within 40 ms' }],
      isError: true,
    });
    await tick();
    expect(c.notifications('notifications/cancelled')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'mcpkit-1', reason: 'The originating request was cancelled' } },
    ]);
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe('client requests on the 2026-07-28 path (MRTR)', () => {
  it('the same tool ends a round with input_required and finishes on the automatic retry', async () => {
    const c = client(make().server, { ...ALL, modern: true });
    const result = await c.callTool('deploy');
    // On 2026-07-28 mcpkit/client answers input requests: the requested schema's defaults fill what the handler left out (SEP-1034).
    expect(result['content']).toEqual([{ type: 'text', text: '{"action":"accept","content":{"name":"api","region":"us","features":["logs","traces"],"n":3,"replicas":2,"public":false,"tier":"free"}}' }]);
    const rounds = c.messages.filter((m) => 'result' in m).map((m) => (m as { result: Record<string, unknown> }).result);
    expect(rounds).toHaveLength(2);
    expect(rounds[0]).toMatchObject({
      resultType: 'input_required',
      inputRequests: { elicitation_1: { method: 'elicitation/create', params: FORM } },
      requestState: expect.any(String),
    });
    expect(rounds[1]?.['resultType']).toBe('complete');
    expect(requestsOf(c)).toEqual([]);
  });

  it('a handler asking twice in sequence takes two retries', async () => {
    const c = client(make().server, { ...ALL, modern: true });
    expect((await c.callTool('both'))['content']).toEqual([{ type: 'text', text: '3 1' }]);
    const inputRounds = c.messages.filter((m) => 'result' in m && (m as { result: Record<string, unknown> }).result['resultType'] === 'input_required');
    expect(inputRounds).toHaveLength(2);
  });

  it('sampling and roots work through MRTR too', async () => {
    const c = client(make().server, { ...ALL, modern: true });
    expect(JSON.parse(((await c.callTool('ask-model'))['content'] as { text: string }[])[0]!.text)).toMatchObject({ content: { text: '4' } });
    expect((await c.callTool('roots'))['content']).toEqual([{ type: 'text', text: '{"roots":[{"uri":"file:///home/me/project","name":"project"}]}' }]);
  });

  it('ctx.requestState survives the rounds, signed', async () => {
    const server = new McpServer({ name: 'asks', version: '1.0.0' });
    const rounds: unknown[] = [];
    server.tool('stateful', {}, async (_args, ctx) => {
      rounds.push(ctx.requestState['step'] ?? null);
      ctx.requestState['step'] = 'asked';
      const answer = await ctx.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } });
      return `${String(ctx.requestState['step'])} ${String(answer.content?.['n'])}`;
    });
    const c = client(server, { ...ALL, modern: true });
    expect((await c.callTool('stateful'))['content']).toEqual([{ type: 'text', text: 'asked 3' }]);
    expect(rounds).toEqual([null, 'asked']);
  });

  it('a tampered requestState is refused with -32602', async () => {
    const c = client(make().server, { ...ALL, modern: true });
    const first = await c.request('tools/call', { name: 'deploy', requestState: 'forged.state', inputResponses: {} }).catch((e: unknown) => e);
    expect((first as TestClientError).code).toBe(-32602);
  });

  it('prompts and resource reads may ask too, in both eras', async () => {
    const build = (): McpServer => {
      const server = new McpServer({ name: 'asks', version: '1.0.0' });
      server.prompt('personal', {}, async (_args, ctx) => {
        const roots = await ctx.listRoots();
        return `Work in ${roots.roots[0]?.uri ?? 'nowhere'}`;
      });
      server.resource('secret://token', {}, async (ctx) => {
        const answer = await ctx.elicit({ message: 'Reveal?', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } });
        return `answer ${String(answer.content?.['n'])}`;
      });
      return server;
    };
    for (const modern of [false, true]) {
      const c = modern ? client(build(), { ...ALL, modern }) : await connected(build(), ALL);
      expect((await c.getPrompt('personal'))['messages']).toEqual([{ role: 'user', content: { type: 'text', text: 'Work in file:///home/me/project' } }]);
      expect((await c.readResource('secret://token'))['contents']).toEqual([{ uri: 'secret://token', text: 'answer 3' }]);
    }
  });

  it('a missing capability is the same clear error', async () => {
    const c = client(make().server, { modern: true, capabilities: {} });
    const error = (await c.callTool('roots').catch((e: unknown) => e)) as TestClientError;
    expect(error.code).toBe(-32021);
  });
});
