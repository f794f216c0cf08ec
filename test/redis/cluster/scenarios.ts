/**
 * The scenarios of issue 11, each a function that throws when the cluster
 * does not behave as one process. The Redis suite runs them expecting
 * success; the negative control runs them on memory stores expecting each to throw.
 * Instances: 0 = A, 1 = B, 2 = C (pinned with `x-pin`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { meta, routingHeaders } from '../../fixtures/modern-http.mjs';
import { expectValidWire } from '../../support/wire-schema.js';
import { call, initialize, LEGACY, MODERN, openGet, post, streamPost, textOf, type Cluster } from './cluster.js';

type Json = Record<string, unknown>;
const A = 0;
const B = 1;
const C = 2;

/** How long to wait for a message that should arrive (short in the negative control, where it never does). */
export interface Wait {
  ms: number;
}

const ok = (answer: { status: number; text: string }, status = 200): void => {
  if (answer.status !== status) throw new Error(`expected HTTP ${status}, got ${answer.status}: ${answer.text}`);
};

/** 1. initialize on A, then tools/list on B and C with the negotiated version; the official SDK client through the balancer. */
export async function initializeOnAListElsewhere(cluster: Cluster): Promise<void> {
  const { session, answer } = await initialize(cluster.url, A);
  expect(answer.servedBy).toBe(A);
  expect((answer.messages[0]!['result'] as Json)['protocolVersion']).toBe(LEGACY);
  for (const pin of [B, C]) {
    const listed = await post(cluster.url, { jsonrpc: '2.0', id: pin, method: 'tools/list' }, { session, version: LEGACY, pin });
    ok(listed);
    expect(listed.servedBy).toBe(pin);
    expectValidWire(listed.messages[0], LEGACY);
    const names = ((listed.messages[0]!['result'] as Json)['tools'] as { name: string }[]).map((t) => t.name);
    expect(names).toContain('whoami');
  }

  const client = new Client({ name: 'sdk-v1', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(cluster.url)));
  try {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      seen.add((result.content as { text: string }[])[0]!.text);
    }
    // Round robin: one SDK session served by every instance.
    expect([...seen].sort()).toEqual(['a', 'b', 'c']);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('ask_name');
  } finally {
    await client.close();
  }
}

/** 2. logging/setLevel on B is honoured by a tool running on C. */
export async function setLevelOnBHonouredOnC(cluster: Cluster): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  ok(await post(cluster.url, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } }, { session, version: LEGACY, pin: B }));
  const probed = await post(cluster.url, call(2, 'log_probe'), { session, version: LEGACY, pin: C });
  ok(probed);
  const logs = probed.messages.filter((m) => m['method'] === 'notifications/message').map((m) => (m['params'] as Json)['level']);
  expect(logs).toEqual(['error']);
  expect(textOf(probed.messages.at(-1))).toBe('logged on c');
}

/** 3. resources/subscribe on A, GET stream on B, update fired on C: the notification arrives on B. */
export async function subscribeOnAStreamOnBUpdateOnC(cluster: Cluster, wait: Wait): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  ok(await post(cluster.url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'test://watched' } }, { session, version: LEGACY, pin: A }));
  const stream = await openGet(cluster.url, session, { pin: B });
  try {
    ok({ status: stream.status, text: stream.raw.join('\n') });
    expect(stream.servedBy).toBe(B);
    ok(await post(cluster.url, call(2, 'trigger_update', { uri: 'test://watched' }), { session, version: LEGACY, pin: C }));
    const update = await stream.next((m) => m['method'] === 'notifications/resources/updated', wait.ms);
    expect(update).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched' } });
  } finally {
    stream.close();
  }
}

/** 4. A tool on B calls ctx.elicit, the client's answer is POSTed to C, the tool completes (raw HTTP, then the SDK client through the balancer). */
export async function elicitOnBAnswerOnC(cluster: Cluster, wait: Wait): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  const running = await streamPost(cluster.url, call(7, 'ask_name'), { session, version: LEGACY, pin: B });
  try {
    const asked = await running.next((m) => m['method'] === 'elicitation/create', wait.ms);
    expectValidWire(asked, LEGACY);
    const answered = await post(cluster.url, { jsonrpc: '2.0', id: asked['id'], result: { action: 'accept', content: { name: 'Ada' } } }, { session, version: LEGACY, pin: C });
    ok(answered, 202);
    const result = await running.next((m) => m['id'] === 7, wait.ms);
    expect(textOf(result)).toBe('Hello, Ada, from b');
  } finally {
    running.close();
  }

  const client = new Client({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Grace' } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(cluster.url)));
  try {
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      expect((result.content as { text: string }[])[0]!.text).toMatch(/^Hello, Grace, from [abc]$/);
    }
  } finally {
    await client.close();
  }
}

/** 5. notifications/cancelled POSTed to C aborts a handler running on A; no response is sent. */
export async function cancelOnCAbortsOnA(cluster: Cluster, wait: Wait): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  const before = JSON.parse(textOf((await post(cluster.url, call(1, 'stats'), { session, version: LEGACY, pin: A })).messages[0])) as { cancelled: number };
  const running = await streamPost(cluster.url, call(9, 'wait_forever', {}, { progressToken: 'p9' }), { session, version: LEGACY, pin: A });
  try {
    await running.next((m) => m['method'] === 'notifications/progress', wait.ms);
    const cancelled = await post(cluster.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'changed my mind' } }, { session, version: LEGACY, pin: C });
    ok(cancelled, 202);
    await running.end(wait.ms);
    // No response to a cancelled request.
    expect(running.messages.filter((m) => m['id'] === 9)).toEqual([]);
  } finally {
    running.close();
  }
  const after = JSON.parse(textOf((await post(cluster.url, call(2, 'stats'), { session, version: LEGACY, pin: A })).messages[0])) as { cancelled: number };
  expect(after.cancelled).toBe(before.cancelled + 1);
}

/** 7. DELETE on C: a request to A gets 404 and the GET stream on B closes. */
export async function deleteOnCEndsEverywhere(cluster: Cluster, wait: Wait): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  const stream = await openGet(cluster.url, session, { pin: B });
  try {
    ok({ status: stream.status, text: stream.raw.join('\n') });
    const deleted = await fetch(cluster.url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, 'x-pin': String(C) } });
    expect(deleted.status).toBe(204);
    await stream.end(wait.ms);
    const after = await post(cluster.url, call(3, 'whoami'), { session, version: LEGACY, pin: A });
    expect(after.status).toBe(404);
    expect(after.messages[0]).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('Session not found') } });
  } finally {
    stream.close();
  }
}

/** 7b. After the idle TTL every instance answers 404 (the cluster runs with SESSION_IDLE_MS). */
export async function idleSessionExpiresEverywhere(cluster: Cluster, idleMs: number): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  ok(await post(cluster.url, call(1, 'whoami'), { session, version: LEGACY, pin: B }));
  await new Promise((resolve) => setTimeout(resolve, idleMs + 1_500));
  for (const pin of [A, B, C]) {
    const answer = await post(cluster.url, call(2, 'whoami'), { session, version: LEGACY, pin });
    expect(answer.status).toBe(404);
  }
}

function modern(id: number | string, method: string, params: Json = {}, extraMeta: Json = {}): { body: Json; headers: Record<string, string> } {
  return { body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...meta(), ...extraMeta } } }, headers: routingHeaders(method, params) };
}

/** 9. 2026-07-28: a listen stream on A receives list changes and resource updates published from B. */
export async function listenOnAHearsB(cluster: Cluster, wait: Wait): Promise<void> {
  const listen = modern('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://watched'] } });
  const stream = await streamPost(cluster.url, listen.body, { pin: A, headers: listen.headers });
  try {
    await stream.next((m) => m['method'] === 'notifications/subscriptions/acknowledged', wait.ms);
    const add = modern(1, 'tools/call', { name: 'add_tool', arguments: { name: `added_${Date.now()}` } });
    ok(await post(cluster.url, add.body, { pin: B, headers: add.headers }));
    const changed = await stream.next((m) => m['method'] === 'notifications/tools/list_changed', wait.ms);
    expectValidWire(changed, MODERN);
    const update = modern(2, 'tools/call', { name: 'trigger_update', arguments: { uri: 'test://watched' } });
    ok(await post(cluster.url, update.body, { pin: B, headers: update.headers }));
    const updated = await stream.next((m) => m['method'] === 'notifications/resources/updated', wait.ms);
    expect(updated['params']).toMatchObject({ uri: 'test://watched' });
  } finally {
    stream.close();
  }
}

/** 10. MRTR round 1 on A, retry on B succeeds; a tampered state is refused on C. */
export async function mrtrAcrossInstances(cluster: Cluster): Promise<void> {
  const round1 = modern(1, 'tools/call', { name: 'ask_name', arguments: {} });
  const first = await post(cluster.url, round1.body, { pin: A, headers: round1.headers });
  ok(first);
  const result = first.messages[0]!['result'] as Json;
  expect(result['resultType']).toBe('input_required');
  const state = result['requestState'] as string;

  const retry = modern(2, 'tools/call', { name: 'ask_name', arguments: {}, requestState: state, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } });
  const second = await post(cluster.url, retry.body, { pin: B, headers: retry.headers });
  ok(second);
  expect(second.messages[0]!['result']).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada, from b' }] });

  const [body, signature] = state.split('.');
  const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Json;
  const tampered = `${Buffer.from(JSON.stringify({ ...payload, kept: { admin: true } })).toString('base64url')}.${signature}`;
  const forged = modern(3, 'tools/call', { name: 'ask_name', arguments: {}, requestState: tampered, inputResponses: { name: { action: 'accept', content: { name: 'Eve' } } } });
  const refused = await post(cluster.url, forged.body, { pin: C, headers: forged.headers });
  expect(refused.status).toBe(400);
  expect(refused.messages[0]).toMatchObject({ error: { code: -32602, message: expect.stringContaining('signature does not match') } });
}
