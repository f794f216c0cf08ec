/**
 * Scenarios 6 and 8 of issue 11: resuming a stream on another instance than
 * the one running its request, and an instance killed with SIGKILL. Each throws
 * when the cluster does not behave as one process (the memory control expects that).
 * Instances: 0 = A, 1 = B, 2 = C (pinned with `x-pin`).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { expect } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { call, initialize, LEGACY, openGet, post, streamPost, textOf, type Cluster } from './cluster.js';
import type { Wait } from './scenarios.js';

type Json = Record<string, unknown>;
const A = 0;
const B = 1;
const C = 2;

const ok = (answer: { status: number; text: string }, status = 200): void => {
  if (answer.status !== status) throw new Error(`expected HTTP ${status}, got ${answer.status}: ${answer.text}`);
};

/** One SSE event as the client read it. */
interface Event {
  id: string | undefined;
  data: string;
}

function eventsOf(raw: readonly string[]): Event[] {
  return raw.map((block) => {
    const lines = block.split('\n');
    const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
    const data = lines
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    return { id, data };
  });
}

const progress = (token: string, step: number, total: number, instance: string): Json => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: step, total, message: `step ${step} on ${instance}` },
});

const isProgress = (step: number) => (m: Json) => m['method'] === 'notifications/progress' && (m['params'] as Json)['progress'] === step;

const toolText = (id: number, text: string): Json => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

/** What a request gets when the instance running it died before answering. */
export const instanceLost = (id: number | string, instance: string): Json => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32603,
    message:
      `Instance lost: the server instance running this request ("${instance}") stopped before answering; ` +
      'its outcome is unknown (it may have had effects), so re-issue it only if that is safe',
    data: { instance },
  },
});

/** An SDK transport whose requests go where `pin` says, through the balancer. */
interface Sent {
  method: string;
  body: string;
  headers: Headers;
}

function pinnedTransport(cluster: Cluster, pin: (sent: Sent) => number, wrap?: (response: Response, sent: Sent) => Response): StreamableHTTPClientTransport {
  const pinned = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const sent = { method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? init.body : '', headers: new Headers(init?.headers) };
    sent.headers.set('x-pin', String(pin(sent)));
    const response = await fetch(input, { ...init, headers: sent.headers });
    return wrap === undefined ? response : wrap(response, sent);
  };
  return new StreamableHTTPClientTransport(new URL(cluster.url), {
    fetch: pinned,
    reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
}

/**
 * 6b. A follower whose client goes away stops following: B unsubscribes from
 * the stream's channel on Redis (counted with PUBSUB NUMSUB) while A's request
 * goes on.
 */
export async function followerLeaves(cluster: Cluster, wait: Wait, redisUrl: string | undefined): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  const gate = `g6b-${randomUUID()}`;
  const running = await streamPost(cluster.url, call(65, 'progress_gate', { gate, before: 1, after: 1 }, { progressToken: 'p65' }), { session, version: LEGACY, pin: A });
  const redis = redisUrl === undefined ? undefined : await createClient({ url: redisUrl }).connect();
  try {
    await running.next(isProgress(1), wait.ms);
    running.close();
    const lastEventId = eventsOf(running.raw).at(-1)!.id!;
    const channel = `mcpkit:ev:n:${lastEventId.slice(0, lastEventId.lastIndexOf(':'))}`;
    const subscribers = async (): Promise<number> => Number((await redis!.sendCommand<unknown[]>(['PUBSUB', 'NUMSUB', channel]))[1]);
    const follower = await openGet(cluster.url, session, { pin: B, lastEventId });
    expect(follower.status).toBe(200);
    await eventually(async () => (await subscribers()) === 1, { everyMs: 50, message: 'B following the stream' });
    follower.close();
    await eventually(async () => (await subscribers()) === 0, { everyMs: 50, message: 'B no longer following once its client left' });
  } finally {
    running.close();
    await redis?.close();
    await post(cluster.url, call(66, 'open_gate', { gate }), { session, version: LEGACY, pin: A }).catch(() => undefined);
  }
}

/** The response body until `cut` resolves, then a network error (the client's connection drops). */
function cutWhen(response: Response, cut: Promise<void>): Response {
  const reader = response.body!.getReader();
  const cutting = cut.then(() => 'cut' as const);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await Promise.race([reader.read(), cutting]);
      if (next === 'cut') {
        controller.error(new TypeError('connection reset (test)'));
        await reader.cancel();
        return;
      }
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * 6. A progress-emitting tool's stream on A is cut; GET with Last-Event-ID to B
 * replays what was missed and follows the stream to the final result while the
 * handler on A goes on (raw HTTP, then the official SDK client reconnecting by itself).
 */
export async function resumeOnBFollowsA(cluster: Cluster, wait: Wait): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  const gate = `g6-${randomUUID()}`;
  const running = await streamPost(cluster.url, call(61, 'progress_gate', { gate, before: 2, after: 2 }, { progressToken: 'p61' }), { session, version: LEGACY, pin: A });
  try {
    await running.next(isProgress(2), wait.ms);
    const received = eventsOf(running.raw);
    // The priming event, then the two steps; every event carries an id.
    expect(received.map((e) => e.data)).toEqual(['', JSON.stringify(progress('p61', 1, 4, 'a')), JSON.stringify(progress('p61', 2, 4, 'a'))]);
    running.close(); // the client goes away; the handler on A goes on

    // Resumed after step 1 on B: step 2 is replayed (same id as on A), then B follows A's stream.
    const resumed = await openGet(cluster.url, session, { pin: B, lastEventId: received[1]!.id! });
    expect(resumed.status).toBe(200);
    expect(resumed.servedBy).toBe(B);
    await resumed.next(isProgress(2), wait.ms);
    ok(await post(cluster.url, call(62, 'open_gate', { gate }), { session, version: LEGACY, pin: A }));
    await resumed.end(wait.ms);
    const followed = eventsOf(resumed.raw);
    expect(followed.map((e) => e.data)).toEqual([
      JSON.stringify(progress('p61', 2, 4, 'a')),
      JSON.stringify(progress('p61', 3, 4, 'a')),
      JSON.stringify(progress('p61', 4, 4, 'a')),
      JSON.stringify(toolText(61, '4 steps done on a')),
    ]);
    expect(followed[0]!.id).toBe(received[2]!.id);
    for (const message of resumed.messages) expectValidWire(message, LEGACY);
    // The request is answered and its stream finished in the store: resuming it again on C ends at once, with nothing.
    const again = await openGet(cluster.url, session, { pin: C, lastEventId: followed.at(-1)!.id! });
    expect(again.status).toBe(200);
    await again.end(wait.ms);
    expect(again.raw).toEqual([]);
  } finally {
    running.close();
    await post(cluster.url, call(63, 'open_gate', { gate }), { session, version: LEGACY, pin: A }).catch(() => undefined);
  }

  // The SDK client: its POST to A drops after the first progress; it resumes with GET + Last-Event-ID, sent to B.
  const sdkGate = `g6-sdk-${randomUUID()}`;
  let sawProgress!: () => void;
  const progressed = new Promise<void>((resolve) => (sawProgress = resolve));
  let resumedOn = -1;
  let resumedAt!: () => void;
  const resumedGet = new Promise<void>((resolve) => (resumedAt = resolve));
  let cut = false;
  const transport = pinnedTransport(
    cluster,
    ({ method }) => (method === 'GET' ? B : A),
    (response, { method, body, headers }) => {
      if (method === 'GET' && headers.has('last-event-id')) {
        resumedOn = Number(response.headers.get('x-served-by'));
        resumedAt();
      }
      if (response.headers.get('content-type')?.startsWith('text/event-stream') && !cut && body.includes('"progress_gate"')) {
        cut = true;
        return cutWhen(response, progressed);
      }
      return response;
    },
  );
  const client = new Client({ name: 'sdk-resume', version: '1.0.0' });
  await client.connect(transport);
  try {
    const steps: number[] = [];
    const result = client.callTool({ name: 'progress_gate', arguments: { gate: sdkGate, before: 1, after: 2 } }, undefined, {
      onprogress: (p) => {
        steps.push(p.progress);
        sawProgress();
      },
      timeout: 20_000,
    });
    await progressed;
    await resumedGet;
    ok(await post(cluster.url, call(64, 'open_gate', { gate: sdkGate }), { session: transport.sessionId!, version: LEGACY, pin: A }));
    const done = await result;
    expect(done.content).toEqual([{ type: 'text', text: '3 steps done on a' }]);
    expect(steps).toEqual([1, 2, 3]);
    expect(resumedOn).toBe(B);
  } finally {
    await client.close();
  }
}

/**
 * 8. `kill -9` of A: B and C keep serving A's session; every event the client
 * received from A is replayed on B, then the request A was running gets a
 * JSON-RPC error once A's liveness lapses; the answer to A's elicitation gets
 * 410 and that request's stream the same error; the SDK client's tools/call
 * fails with it. A is restarted at the end (the cluster is shared).
 */
export async function killAKeepsServing(cluster: Cluster, wait: Wait, instanceTtlMs: number): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  const gate = `g8-${randomUUID()}`;
  const running = await streamPost(cluster.url, call(81, 'progress_gate', { gate, before: 3, after: 1 }, { progressToken: 'p81' }), { session, version: LEGACY, pin: A });
  const asking = await streamPost(cluster.url, call(82, 'ask_name'), { session, version: LEGACY, pin: A });
  try {
    await running.next(isProgress(3), wait.ms);
    const asked = await asking.next((m) => m['method'] === 'elicitation/create', wait.ms);
    const received = eventsOf(running.raw);
    const askedEvents = eventsOf(asking.raw);
    await cluster.kill(A);
    running.close();
    asking.close();

    // B and C serve the session A opened, from its record.
    for (const [pin, name] of [[B, 'b'], [C, 'c']] as const) {
      const who = await post(cluster.url, call(83 + pin, 'whoami'), { session, version: LEGACY, pin });
      ok(who);
      expect(textOf(who.messages[0])).toBe(name);
    }

    // Resumed on B from the first id the client got: every event it received, same ids, then the error once A's liveness lapsed.
    const resumed = await openGet(cluster.url, session, { pin: B, lastEventId: received[0]!.id! });
    expect(resumed.status).toBe(200);
    await resumed.end(wait.ms + instanceTtlMs);
    expect(eventsOf(resumed.raw)).toEqual([...received.slice(1), { id: undefined, data: JSON.stringify(instanceLost(81, 'a')) }]);
    expectValidWire(resumed.messages.at(-1), LEGACY);

    // The answer to A's elicitation, posted to C: A is gone, and so is the request it asked for.
    const answered = await post(cluster.url, { jsonrpc: '2.0', id: asked['id'], result: { action: 'accept', content: { name: 'Ada' } } }, { session, version: LEGACY, pin: C });
    expect(answered.status).toBe(410);
    expect(answered.messages[0]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          'Gone: this answer cannot be delivered: the server instance that asked ("a") has stopped, and the request it asked for ended with it ' +
          '(its stream, resumed with Last-Event-ID, answers it with an error); re-issue that request',
        data: { instances: ['a'] },
      },
    });
    // That request's stream, resumed on C after the elicitation it received: the error at once.
    const resumedAsk = await openGet(cluster.url, session, { pin: C, lastEventId: askedEvents.at(-1)!.id! });
    await resumedAsk.end(wait.ms);
    expect(resumedAsk.messages).toEqual([instanceLost(82, 'a')]);
  } finally {
    running.close();
    asking.close();
    await cluster.restart(A);
  }

  // The SDK client: A dies while its elicitation is pending; the client resumes on B and its tools/call fails with the error.
  const transport = pinnedTransport(cluster, ({ method, body }) => (method === 'POST' && body.includes('"ask_name"') ? A : B));
  const client = new Client({ name: 'sdk-kill', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => {
    await cluster.kill(A);
    return { action: 'accept', content: { name: 'Grace' } };
  });
  client.onerror = () => undefined; // the answer to A may be refused (410) and the resumed stream ends: both expected
  await client.connect(transport);
  try {
    await expect(client.callTool({ name: 'ask_name', arguments: {} }, undefined, { timeout: 20_000 })).rejects.toThrow(
      'MCP error -32603: Instance lost: the server instance running this request ("a") stopped before answering',
    );
  } finally {
    await client.close();
    await cluster.restart(A);
  }
}
