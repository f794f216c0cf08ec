/**
 * Every per-method fact lives in the method table (`src/protocol/methods/table.ts`):
 * the scopes a request needs (what the HTTP auth gate asks `McpServer.scopesFor`),
 * the target it names (what observability and OpenTelemetry report), and the
 * params and result types middleware sees. The layers that read these facts
 * name no method: a static check below, and a synthetic method that the
 * observability and OpenTelemetry code pick up from its entry alone.
 */
import { tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { methodTable } from '../../../src/protocol/methods/table.js';
import type { MethodTypes, MiddlewareContext, ParamsOf, ResultOf } from '../../../src/protocol/methods/middleware-types.js';
import type { callTool, listTools } from '../../../src/protocol/methods/tools.js';
import type { getPrompt } from '../../../src/protocol/methods/prompts.js';
import type { readResource } from '../../../src/protocol/methods/resources.js';
import { observeRequest } from '../../../src/protocol/observability/hooks.js';
import type { RequestMessage } from '../../../src/protocol/observability/channels.js';
import { TOOL_TARGET, type MethodFacts } from '../../../src/protocol/wire/method-facts.js';
import { operationAttributes, requestOutcome, serverSpanAttributes } from '../../../src/otel/attributes.js';
import type { McpToolResult } from '../../../src/wire-types/index.js';
import { LEGACY } from '../../support/revisions.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The modules that read method facts: they must take them from an entry, never compare method names. */
const READERS = [
  'src/protocol/observability/hooks.ts',
  'src/protocol/observability/channels.ts',
  'src/otel/attributes.ts',
  'src/otel/instrument.ts',
  'src/transports/http/auth/gate.ts',
  'src/protocol/request/middleware.ts',
  'src/protocol/methods/middleware-types.ts',
  'src/server/server.ts',
];

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

function record(): { messages: RequestMessage[]; stop: () => void } {
  const messages: RequestMessage[] = [];
  const subscribers: TracingChannelSubscribers<RequestMessage> = {
    start: (message) => void messages.push(message),
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd: () => undefined,
    error: () => undefined,
  };
  tracingChannel<unknown, RequestMessage>('mcpkit:request').subscribe(subscribers);
  return { messages, stop: () => tracingChannel<unknown, RequestMessage>('mcpkit:request').unsubscribe(subscribers) };
}

function scopedServer(): McpServer {
  const server = new McpServer({ name: 'facts', version: '1.0.0', capabilities: { resources: { subscribe: true } } });
  server.tool('secret', { scopes: ['tools:secret'] }, () => 'ok');
  server.prompt('brief', { scopes: ['prompts:brief'], arguments: [{ name: 'topic' }] }, () => 'hello');
  server.resource('doc://a', { name: 'a', scopes: ['docs:read'] }, () => ({ text: 'a' }));
  server.resourceTemplate('file:///{path}', { name: 'files', scopes: ['files:read'] }, () => ({ text: 'f' }));
  return server;
}

describe('the method table is the one source of per-method facts', () => {
  it('the modules that read method facts contain no method-name literal', () => {
    const names = Object.keys(methodTable);
    expect(names.length).toBeGreaterThan(15);
    for (const file of READERS) {
      const code = withoutComments(readFileSync(root + file, 'utf8'));
      for (const name of names) {
        expect({ file, literal: code.includes(`'${name}'`) || code.includes(`"${name}"`) || code.includes(`\`${name}\``) }).toEqual({ file, literal: false });
      }
      // Nor a prefix test standing in for a family of methods.
      expect({ file, prefix: /startsWith\(\s*['"`][a-z]+\//.test(code) }).toEqual({ file, prefix: false });
    }
  });

  it('scopesFor answers what each entry with a scopes fact says, and nothing for the others', () => {
    const server = scopedServer();
    const params: Record<string, Record<string, unknown>> = {
      'tools/call': { name: 'secret' },
      'prompts/get': { name: 'brief' },
      'resources/read': { uri: 'file:///x' },
      'resources/subscribe': { uri: 'doc://a' },
      'subscriptions/listen': { notifications: { resourceSubscriptions: ['doc://a', 'file:///y'] } },
      'completion/complete': { ref: { type: 'ref/prompt', name: 'brief' }, argument: { name: 'topic', value: '' } },
    };
    const expected: Record<string, string[]> = {
      'tools/call': ['tools:secret'],
      'prompts/get': ['prompts:brief'],
      'resources/read': ['files:read'],
      'resources/subscribe': ['docs:read'],
      'subscriptions/listen': ['docs:read', 'files:read'],
      'completion/complete': ['prompts:brief'],
    };
    const withScopes = Object.values(methodTable).filter((entry) => entry?.kind === 'request' && entry.scopes !== undefined).map((entry) => entry!.method);
    expect(withScopes.sort()).toEqual(Object.keys(expected).sort());
    for (const method of Object.keys(methodTable)) {
      const answer = server.scopesFor(method, params[method] ?? { name: 'secret', uri: 'doc://a' });
      expect({ method, scopes: answer === undefined ? undefined : [...answer].sort() }).toEqual({ method, scopes: expected[method] });
    }
  });

  it('every request names its target as its entry says, on a real connection', async () => {
    const server = scopedServer();
    const recorded = record();
    try {
      const connection = server.openConnection({ transport: 'test' });
      await connection.handleMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      let id = 1;
      for (const entry of Object.values(methodTable)) {
        if (entry?.kind !== 'request') continue;
        await connection.handleMessage({ jsonrpc: '2.0', id: id++, method: entry.method, params: { name: 'named', uri: 'uri:named' } });
      }
      for (const entry of Object.values(methodTable)) {
        if (entry?.kind !== 'request') continue;
        const message = recorded.messages.find((m) => m.method === entry.method)!;
        const target = entry.target === undefined ? undefined : entry.target.param === 'name' ? 'named' : 'uri:named';
        expect({ method: entry.method, target: message.target, kind: message.targetKind }).toEqual({ method: entry.method, target, kind: entry.target?.kind });
      }
      // The revision comes from the era classifier: the negotiated one here; for initialize, the one asked for.
      expect(recorded.messages.find((m) => m.method === 'initialize')).toMatchObject({ protocolVersion: LEGACY, negotiates: true });
      expect(recorded.messages.find((m) => m.method === 'tools/call')).toMatchObject({ protocolVersion: LEGACY, negotiates: false });
    } finally {
      recorded.stop();
    }
  });

  it('a method added with only its facts is traced and given OpenTelemetry attributes from them', async () => {
    // A method no layer has ever heard of: only its entry's facts say it names a tool.
    const facts: MethodFacts = { method: 'widgets/run', kind: 'request', eras: ['legacy'], target: TOOL_TARGET };
    const recorded = record();
    let message: RequestMessage | undefined;
    try {
      const answer = await observeRequest({ sessionId: undefined, transport: 'test' }, { jsonrpc: '2.0', id: 9, method: 'widgets/run', params: { name: 'gear' } }, facts, {}, () => ({
        jsonrpc: '2.0' as const,
        id: 9,
        result: { content: [], isError: true },
      }));
      expect(answer).toEqual({ jsonrpc: '2.0', id: 9, result: { content: [], isError: true } });
      message = recorded.messages.find((m) => m.method === 'widgets/run');
    } finally {
      recorded.stop();
    }
    expect(message).toMatchObject({ target: 'gear', targetKind: 'tool', protocolVersion: LEGACY });
    expect(operationAttributes(message!, LEGACY)).toMatchObject({ 'mcp.method.name': 'widgets/run', 'gen_ai.tool.name': 'gear', 'gen_ai.operation.name': 'execute_tool' });
    expect(serverSpanAttributes(message!, operationAttributes(message!, LEGACY))['mcp.resource.uri']).toBeUndefined();
    message!.result = { jsonrpc: '2.0', id: 9, result: { content: [], isError: true } };
    expect(requestOutcome(message!)).toEqual({ errorType: 'tool_error' });
  });

  it('the middleware types are the types the entries declare', () => {
    expectTypeOf<MethodTypes['tools/call']>().toEqualTypeOf<NonNullable<(typeof callTool)['types']>>();
    expectTypeOf<ParamsOf<'tools/call'>>().toEqualTypeOf<{ name: string; arguments?: Record<string, unknown> } & { _meta?: Record<string, unknown> }>();
    expectTypeOf<ResultOf<'tools/call'>>().toEqualTypeOf<McpToolResult>();
    expectTypeOf<MethodTypes['tools/list']>().toEqualTypeOf<NonNullable<(typeof listTools)['types']>>();
    expectTypeOf<MethodTypes['prompts/get']>().toEqualTypeOf<NonNullable<(typeof getPrompt)['types']>>();
    expectTypeOf<MethodTypes['resources/read']>().toEqualTypeOf<NonNullable<(typeof readResource)['types']>>();
    expectTypeOf<keyof MethodTypes>().toEqualTypeOf<'tools/list' | 'tools/call' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'prompts/list' | 'prompts/get'>();
    // A method without declared types is loosely typed.
    expectTypeOf<ParamsOf<'ping'>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<MiddlewareContext<'prompts/get'>['params']['name']>().toEqualTypeOf<string>();
  });
});
