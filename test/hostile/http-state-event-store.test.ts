/**
 * The SSE event store under hostile traffic: bounded in bytes per stream, per
 * owner (session), per client and in total; one client never evicts another's
 * replay log, and one owner never another's except within its client's quota;
 * a replay is complete or refused, never partial; an owner's events go when
 * it ends. The model-based property drives the memory store directly; the rest
 * runs real servers on 127.0.0.1 (node and fetch adapters).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../src/jsonrpc/message.js';
import { MemoryEventStore, type HttpEngineOptions } from '../../src/http.js';
import type { ConnectionFactory } from '../../src/protocol/connection.js';
import { buildServer } from '../transports/http/fixtures.js';
import {
  eventually,
  messages,
  openSession,
  post,
  readEvents,
  rpc,
  initializeBody,
  sessionHeaders,
  startFetch,
  startNode,
  type SseEvent,
  type TestServer,
} from '../transports/http/support.js';
import { requestFrom } from './sessions-support.js';

const LIMITS = { maxBytesPerStream: 6_000, maxBytesPerOwner: 10_000, maxBytesPerClient: 14_000, maxBytes: 24_000, maxEventsPerStream: 12, maxEvents: 60 };
/** o0 and o1 are sessions of one client, o2 of another, o3 has no client (no client quota). */
const CLIENTS: Record<string, string | undefined> = { o0: 'cA', o1: 'cA', o2: 'cB', o3: undefined };

const note = (text: string): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text } });

type Op = { kind: 'append'; owner: number; stream: number; size: number } | { kind: 'release'; owner: number };

const ops = fc.array(
  fc.oneof(
    { weight: 12, arbitrary: fc.record({ kind: fc.constant('append' as const), owner: fc.nat(3), stream: fc.nat(2), size: fc.oneof(fc.nat(40), fc.nat(7_000)) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), owner: fc.nat(3) }) },
  ),
  { maxLength: 80 },
);

async function replay(store: MemoryEventStore, owner: string, lastEventId: string): Promise<[string, JsonRpcMessage][] | undefined> {
  const written: [string, JsonRpcMessage][] = [];
  const stream = await store.replayAfter(owner, lastEventId, (id, message) => {
    written.push([id, message]);
  });
  return stream === undefined ? undefined : written;
}

describe('MemoryEventStore against a model', () => {
  it('stays within every byte and count bound, never replays partially, and never touches another client', async () => {
    await fc.assert(
      fc.asyncProperty(ops, async (script: Op[]) => {
        const store = new MemoryEventStore(LIMITS);
        // Everything ever appended, per owner and stream, in order: [event id, message or position].
        const model = new Map<string, Map<string, [string, JsonRpcMessage | undefined][]>>();
        let generation = 0;
        for (const op of script) {
          const owner = `o${op.owner}`;
          // Owners of the same client may lose streams to its quota; no one else may.
          const others = [...model.keys()].filter((o) => o !== owner && (CLIENTS[o] === undefined || CLIENTS[o] !== CLIENTS[owner]));
          const before = await Promise.all(others.map((o) => snapshot(store, o, model.get(o)!)));
          if (op.kind === 'release') {
            store.release(owner);
            model.delete(owner);
            generation++;
          } else {
            // Stream ids are never shared between owners (sessions mint their own).
            const streamId = `${owner}.g${generation}.s${op.stream}`;
            const message = op.size % 5 === 0 ? undefined : note('x'.repeat(op.size));
            const id = store.append(owner, streamId, message, CLIENTS[owner]);
            const streams = model.get(owner) ?? new Map<string, [string, JsonRpcMessage | undefined][]>();
            model.set(owner, streams);
            streams.set(streamId, [...(streams.get(streamId) ?? []), [id, message]]);
          }
          // Bounds hold after every operation.
          expect(store.bytes).toBeLessThanOrEqual(LIMITS.maxBytes);
          expect(store.size).toBeLessThanOrEqual(LIMITS.maxEvents);
          for (const o of Object.keys(CLIENTS)) expect(store.bytesOf(o)).toBeLessThanOrEqual(LIMITS.maxBytesPerOwner);
          for (const c of ['cA', 'cB']) expect(store.bytesOfClient(c)).toBeLessThanOrEqual(LIMITS.maxBytesPerClient);
          // Another owner's replay answers are exactly what they were.
          const after = await Promise.all(others.map((o) => snapshot(store, o, model.get(o)!)));
          expect(after).toEqual(before);
          // Every answer is the complete suffix or a refusal.
          for (const [o, streams] of model) {
            for (const events of streams.values()) {
              for (let i = 0; i < events.length; i++) {
                const got = await replay(store, o, events[i]![0]);
                if (got === undefined) continue;
                const expected = events.slice(i + 1).filter(([, m]) => m !== undefined);
                expect(got).toEqual(expected);
              }
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses another owner, and forgets an owner on release', async () => {
    const store = new MemoryEventStore();
    const priming = store.append('a', 'a.1');
    store.append('a', 'a.1', note('secret'));
    expect(await replay(store, 'b', priming)).toBeUndefined();
    expect(await replay(store, 'a', priming)).toEqual([[expect.any(String), note('secret')]]);
    store.release('a');
    expect(store.bytes).toBe(0);
    expect(store.size).toBe(0);
    expect(await replay(store, 'a', priming)).toBeUndefined();
  });

  it("makes room for a client over its quota among its own sessions' least recently written streams only", async () => {
    const store = new MemoryEventStore({ maxBytesPerClient: 3_000 });
    const other = store.append('b1', 'b1.1', note('kept'), 'B');
    const first = store.append('a1', 'a1.1', note('x'.repeat(1_000)), 'A');
    const second = store.append('a2', 'a2.1', note('x'.repeat(1_000)), 'A');
    store.append('a3', 'a3.1', note('x'.repeat(1_000)), 'A');
    // a1's stream was A's least recently written: it went; a2's stayed, and B was never touched.
    expect(await replay(store, 'a1', first)).toBeUndefined();
    expect(store.bytesOf('a1')).toBe(0);
    expect(await replay(store, 'a2', second)).toEqual([]);
    expect(store.bytesOfClient('A')).toBeLessThanOrEqual(3_000);
    expect(await replay(store, 'b1', other)).toEqual([]);
    store.release('a2');
    store.release('a3');
    expect(store.bytesOfClient('A')).toBe(0);
    expect(store.bytes).toBe(store.bytesOfClient('B'));
  });

  it('counts bytes, not events: one client-sized message can fill a stream', () => {
    const store = new MemoryEventStore({ maxBytesPerStream: 1_000_000 });
    store.append('a', 'a.1', note('y'.repeat(2_000_000)));
    expect(store.bytes).toBeLessThan(1_000);
    store.append('a', 'a.1', note('é'.repeat(400_000))); // 800 kB of UTF-8
    expect(store.bytes).toBeGreaterThan(800_000);
    expect(store.bytes).toBeLessThanOrEqual(1_000_000 + 512);
  });
});

/** Every replay answer of one owner's known ids. */
async function snapshot(store: MemoryEventStore, owner: string, streams: Map<string, [string, JsonRpcMessage | undefined][]>): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const events of streams.values()) for (const [id] of events) answers.push(await replay(store, owner, id));
  return answers;
}

const adapters: [string, (factory: ConnectionFactory, options: HttpEngineOptions) => Promise<TestServer>][] = [
  ['node', startNode],
  ['fetch', startFetch],
];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const lastId = (events: SseEvent[]): string => events.filter((e) => e.id !== undefined).at(-1)!.id!;

function resume(url: string, session: string, lastEventId: string): Promise<Response> {
  return fetch(url, { headers: { accept: 'text/event-stream', 'last-event-id': lastEventId, ...sessionHeaders(session) } });
}

/** Starts `steps` on a session, reads its first progress, then drops the connection; the result is recorded unseen. */
async function droppedSteps(url: string, session: string, gate: string, gates: ReturnType<typeof buildServer>['gates']): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...sessionHeaders(session) },
    body: JSON.stringify(rpc(7, 'tools/call', { name: 'steps', arguments: { gate }, _meta: { progressToken: 7 } })),
    signal: controller.signal,
  });
  const seen = await readEvents(response, (event) => event.data.includes('notifications/progress'));
  controller.abort();
  gates.open(gate);
  await eventually(() => gates.completed.includes(`steps:${gate}`));
  return lastId(seen);
}

describe.each(adapters)('event store quotas over HTTP (%s adapter)', (_name, start) => {
  it("one session's flood of logging evicts only its own events; the other session resumes to its result", async () => {
    const { server: mcp, gates } = buildServer();
    const store = new MemoryEventStore({ maxBytesPerOwner: 1024 * 1024, maxBytes: 3 * 1024 * 1024 });
    server = await start(mcp, { sessions: { eventStore: store } });
    const victim = await openSession(server.url);
    const resumeFrom = await droppedSteps(server.url, victim, 'v', gates);

    const attacker = await openSession(server.url);
    const flood = await post(server.url, rpc(1, 'tools/call', { name: 'flood', arguments: {} }), sessionHeaders(attacker));
    const flooded = await readEvents(flood);
    expect(messages(flooded).at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'flooded' }] } }); // 6.4 MB delivered live
    expect(store.bytesOf(attacker)).toBeLessThanOrEqual(1024 * 1024);
    expect(store.bytes).toBeLessThanOrEqual(3 * 1024 * 1024);

    // The attacker's own early events are gone: its resumption is refused, not silently short.
    const refused = await resume(server.url, attacker, flooded.find((e) => e.id !== undefined)!.id!);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/dropped/) } });

    const resumed = await resume(server.url, victim, resumeFrom);
    expect(resumed.status).toBe(200);
    const rest = messages(await readEvents(resumed));
    expect(rest.at(-1)).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'stepped' }] } });
  });

  it("one client's many sessions fill only its own quota: another client's new events are still kept and resumable", async () => {
    const { server: mcp, gates } = buildServer();
    const MiB = 1024 * 1024;
    const store = new MemoryEventStore({ maxBytesPerOwner: MiB, maxBytesPerClient: 2 * MiB, maxBytes: 3 * MiB });
    server = await start(mcp, { sessions: { eventStore: store } });
    // Client A (127.0.0.2) floods from three sessions: without a client quota they would fill the 3 MiB total.
    const fromA = (body: unknown, headers: Record<string, string> = {}) => requestFrom(server!.url, { localAddress: '127.0.0.2', headers, body });
    for (let i = 0; i < 3; i++) {
      const init = await fromA(initializeBody());
      expect(init.status).toBe(200);
      const session = init.headers['mcp-session-id'] as string;
      expect((await fromA({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(session))).status).toBe(202);
      const flood = await fromA(rpc(1, 'tools/call', { name: 'flood', arguments: {} }), sessionHeaders(session));
      expect(flood.body).toContain('flooded');
    }
    expect(store.bytesOfClient('addr:127.0.0.2')).toBeLessThanOrEqual(2 * MiB);
    expect(store.bytesOfClient('addr:127.0.0.2')).toBeGreaterThan(MiB);

    // Client B (127.0.0.1) still has its events kept: it resumes to its result.
    const victim = await openSession(server.url);
    const resumeFrom = await droppedSteps(server.url, victim, 'b', gates);
    const resumed = await resume(server.url, victim, resumeFrom);
    expect(resumed.status).toBe(200);
    const rest = messages(await readEvents(resumed));
    expect(rest.at(-1)).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'stepped' }] } });
    expect(store.bytesOfClient('addr:127.0.0.2')).toBeLessThanOrEqual(2 * MiB);
  });

  it("releases a session's events when it is deleted", async () => {
    const { server: mcp, gates } = buildServer();
    const store = new MemoryEventStore();
    server = await start(mcp, { sessions: { eventStore: store } });
    const deleted = await openSession(server.url);
    await droppedSteps(server.url, deleted, 'd', gates);
    expect(store.bytesOf(deleted)).toBeGreaterThan(0);

    const response = await fetch(server.url, { method: 'DELETE', headers: sessionHeaders(deleted) });
    expect(response.status).toBe(204);
    expect(store.bytesOf(deleted)).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it("releases a session's events when it expires", async () => {
    const { server: mcp, gates } = buildServer();
    // What each owner held when the store let it go: the expiry is observed as the release it
    // causes, so when it fires (early under load, or late) does not matter, only that it does.
    const released = new Map<string, number>();
    const store = new (class extends MemoryEventStore {
      override release(owner: string): void {
        released.set(owner, this.bytesOf(owner));
        super.release(owner);
      }
    })();
    // Long enough that the session lives through its own requests on a loaded machine; the
    // wait below (10 s) fails the test if the expiry never fires.
    server = await start(mcp, { sessions: { eventStore: store, idleTimeoutMs: 1_000 } });
    const expiring = await openSession(server.url);
    await droppedSteps(server.url, expiring, 'e', gates);
    await eventually(() => released.has(expiring), { message: 'the idle session to expire' });
    expect(released.get(expiring)).toBeGreaterThan(0);
    expect(store.bytesOf(expiring)).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it('refuses a Last-Event-ID of another session with 400, as if unknown', async () => {
    const { server: mcp, gates } = buildServer();
    server = await start(mcp, {});
    const owner = await openSession(server.url);
    const id = await droppedSteps(server.url, owner, 'o', gates);
    const other = await openSession(server.url);
    const response = await resume(server.url, other, id);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
  });
});
