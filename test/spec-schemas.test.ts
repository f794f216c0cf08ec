// The vendored spec schemas load, and the wire validator built on them is
// strict in the ways tests rely on.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SPEC_REVISIONS,
  definitionForMethod,
  expectValidResult,
  expectValidWire,
  resultDefinitionsFor,
  validateDefinition,
  validateResult,
  validateWire,
} from './support/wire-schema.js';

const MODERN = '2026-07-28';
const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
const examplesDir = new URL(`./spec/${MODERN}/examples/`, import.meta.url);

interface Example {
  type: string;
  file: string;
  value: unknown;
}

const examples: Example[] = readdirSync(examplesDir).flatMap((type) =>
  readdirSync(new URL(`${type}/`, examplesDir))
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ type, file, value: JSON.parse(readFileSync(new URL(`${type}/${file}`, examplesDir), 'utf8')) as unknown })),
);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

describe(`spec examples (${MODERN})`, () => {
  it('are all vendored', () => {
    expect(examples.length).toBeGreaterThanOrEqual(129);
  });

  it.each(examples.map((e) => [`${e.type}/${e.file}`, e] as const))('%s validates against its $defs type', (_name, e) => {
    expect(validateDefinition(e.value, e.type, MODERN)).toEqual([]);
  });

  // The spec's own example omits the cache hints ReadResourceResult requires; the
  // bare schema accepts it only because InputRequiredResult (which requires just
  // `resultType`) absorbs any object. Dispatching on resultType catches it.
  const knownBad: Record<string, string[]> = {
    'ReadResourceResultResponse/read-resource-result-response.json': [
      "ReadResourceResult at /result: must have required property 'cacheScope'",
      "ReadResourceResult at /result: must have required property 'ttlMs'",
    ],
  };

  it.each(examples.filter((e) => isObject(e.value) && 'jsonrpc' in e.value).map((e) => [`${e.type}/${e.file}`, e] as const))(
    '%s is a valid wire message',
    (name, e) => {
      const method = e.type.endsWith('ResultResponse') ? methodForResult(e.type.replace(/Response$/, '')) : undefined;
      expect(validateWire(e.value, MODERN, method)).toEqual(knownBad[name] ?? []);
    },
  );

  it('result examples validate as the result of their method', () => {
    let checked = 0;
    for (const e of examples) {
      const method = methodForResult(e.type);
      if (method === undefined) continue;
      expect(validateResult(e.value, method, MODERN), `${e.type}/${e.file}`).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('rejects a broken example', () => {
    const e = examples.find((x) => x.type === 'ListToolsResult');
    const broken = { ...(e?.value as Record<string, unknown>) };
    delete broken['ttlMs'];
    expect(validateDefinition(broken, 'ListToolsResult', MODERN)).toContain("ListToolsResult at /: must have required property 'ttlMs'");
  });
});

function methodForResult(type: string): string | undefined {
  const methods = ['tools/call', 'tools/list', 'prompts/get', 'prompts/list', 'resources/read', 'resources/list', 'resources/templates/list', 'completion/complete', 'server/discover', 'subscriptions/listen'];
  return methods.find((m) => resultDefinitionsFor(m, MODERN)?.includes(type) && type !== 'InputRequiredResult');
}

describe('method → definition maps', () => {
  it('come from properties.method.const', () => {
    expect(definitionForMethod('tools/call', '2024-11-05')).toEqual({ name: 'CallToolRequest', kind: 'request' });
    expect(definitionForMethod('notifications/progress', MODERN)).toEqual({ name: 'ProgressNotification', kind: 'notification' });
    expect(definitionForMethod('notifications/cancelled', MODERN)).toEqual({ name: 'CancelledNotification', kind: 'notification' });
    expect(definitionForMethod('server/discover', MODERN)?.name).toBe('DiscoverRequest');
    expect(definitionForMethod('ping', MODERN)).toBeUndefined();
    expect(definitionForMethod('server/discover', '2025-11-25')).toBeUndefined();
  });

  it('map results per revision', () => {
    expect(resultDefinitionsFor('ping', '2025-06-18')).toEqual(['EmptyResult']);
    expect(resultDefinitionsFor('initialize', '2024-11-05')).toEqual(['InitializeResult']);
    expect(resultDefinitionsFor('tools/call', '2025-11-25')).toEqual(['CallToolResult']);
    expect(resultDefinitionsFor('tools/call', '2025-11-25', { taskAugmented: true })).toEqual(['CreateTaskResult']);
    expect(resultDefinitionsFor('tools/call', MODERN)).toEqual(['InputRequiredResult', 'CallToolResult']);
    expect(resultDefinitionsFor('subscriptions/listen', MODERN)).toEqual(['SubscriptionsListenResult']);
    expect(resultDefinitionsFor('resources/templates/list', MODERN)).toEqual(['ListResourceTemplatesResult']);
  });
});

describe.each(LEGACY)('legacy revision %s', (rev) => {
  it('accepts a ping result {} and its response', () => {
    expect(validateResult({}, 'ping', rev)).toEqual([]);
    expect(validateWire({ jsonrpc: '2.0', id: 1, result: {} }, rev, 'ping')).toEqual([]);
    expectValidResult({}, 'logging/setLevel', rev);
  });

  it('accepts a tools/call result and rejects one missing content', () => {
    expectValidResult({ content: [{ type: 'text', text: 'hi' }] }, 'tools/call', rev);
    expect(validateResult({ isError: true }, 'tools/call', rev)).toContain("CallToolResult at /: must have required property 'content'");
    expect(validateWire({ jsonrpc: '2.0', id: 'a', result: { content: 'hi' } }, rev, 'tools/call')).toContain('CallToolResult at /result/content: must be array');
    expect(() => expectValidResult({}, 'tools/call', rev)).toThrow(/must have required property 'content'/);
  });

  it('checks notifications against their typed definition', () => {
    expectValidWire({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }, rev);
    expect(validateWire({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }, rev)).toEqual([
      "ProgressNotification at /params: must have required property 'progressToken'",
    ]);
    expect(validateWire({ jsonrpc: '2.0', id: 3, method: 'notifications/tools/list_changed' }, rev)).toContain(
      "ToolListChangedNotification at /: 'notifications/tools/list_changed' is a notification and must not carry an id",
    );
  });

  it('checks the envelope', () => {
    const resultEnvelope = rev === '2025-11-25' ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
    expect(validateWire({ jsonrpc: '1.0', id: 1, result: {} }, rev)).toEqual([`${resultEnvelope} at /jsonrpc: must be equal to constant ("2.0")`]);
    expect(validateWire({ jsonrpc: '2.0', id: null, result: {} }, rev).length).toBeGreaterThan(0);
    expect(() => expectValidWire({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }, rev)).toThrow(
      "CallToolRequest at /params: must have required property 'name'",
    );
    expectValidWire({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }, rev);
    const idless = validateWire({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }, rev);
    if (rev === '2025-11-25') expect(idless).toEqual([]);
    else expect(idless).toContain("JSONRPCError at /: must have required property 'id'");
  });

  it('allows batches only in 2025-03-26', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'nope' } },
    ];
    if (rev === '2025-03-26') {
      expect(validateWire(batch, rev)).toEqual([]);
      expect(validateWire([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }], rev)).toEqual([
        "ProgressNotification at /0/params: must have required property 'progressToken'",
      ]);
    } else {
      expect(validateWire(batch, rev)).toContain('JSONRPCMessage at /: must be object');
    }
  });
});

describe(`modern revision ${MODERN}`, () => {
  it('requires resultType on every result', () => {
    expect(validateWire({ jsonrpc: '2.0', id: 1, result: {} }, MODERN)).toEqual(["JSONRPCResultResponse at /result: must have required property 'resultType'"]);
    expectValidWire({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } }, MODERN);
    expect(validateResult({}, 'ping', MODERN)).toEqual([`revision ${MODERN} defines no request method 'ping'`]);
  });

  it('requires content on a complete tools/call result, and input on an input_required one', () => {
    expectValidResult({ resultType: 'complete', content: [] }, 'tools/call', MODERN);
    expect(validateResult({ resultType: 'complete' }, 'tools/call', MODERN)).toEqual(["CallToolResult at /: must have required property 'content'"]);
    expectValidResult({ resultType: 'input_required', requestState: 'opaque' }, 'tools/call', MODERN);
    expect(validateResult({ resultType: 'input_required' }, 'tools/call', MODERN)).toEqual([
      'InputRequiredResult at /: at least one of inputRequests or requestState MUST be present',
    ]);
    expect(validateResult({ resultType: 'done', content: [] }, 'tools/call', MODERN)).toEqual([
      `CallToolResult at /resultType: must be 'complete' or 'input_required' (got "done")`,
    ]);
  });

  it('requires cache hints on list results', () => {
    expectValidResult({ resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' }, 'tools/list', MODERN);
    const violations = validateResult({ resultType: 'complete', tools: [], cacheScope: 'shared' }, 'tools/list', MODERN);
    expect(violations).toContain("ListToolsResult at /: must have required property 'ttlMs'");
    expect(violations).toContain('ListToolsResult at /cacheScope: must be equal to one of the allowed values (["private","public"])');
  });

  it('requires per-request _meta on requests', () => {
    expectValidWire({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta, name: 'echo' } }, MODERN);
    expect(validateWire({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }, MODERN)).toEqual([
      "CallToolRequest at /params: must have required property '_meta'",
    ]);
    expect(validateWire({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }, MODERN)).toEqual([
      "ProgressNotification at /params: must have required property 'progressToken'",
    ]);
  });

  it('rejects unknown revisions loudly', () => {
    expect(() => validateWire({}, '2099-01-01')).toThrow(/no vendored schema/);
    expect(SPEC_REVISIONS).toContain(MODERN);
  });
});
