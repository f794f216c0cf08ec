/** RedisEventStore: the event store contract on a real redis-server, the same answers as the memory store, and outages. */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../src/jsonrpc/message.js';
import { StoreUnavailableError } from '../../src/index.js';
import { MemoryEventStore, type EventStore } from '../../src/http.js';
import { RedisEventStore, RedisSubscriber } from '../../src/redis.js';
import { describeEventStoreContract, waitFor } from '../../src/testing/index.js';
import type { RedisServer } from '../support/redis.js';
import { connectClient, freshPrefix, redisFixture, useRedis } from './support.js';

const server = useRedis();
let redis: RedisServer;
beforeAll(() => {
  redis = server();
});

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

describeEventStoreContract('MemoryEventStore', (limits) => {
  const store = new MemoryEventStore(limits);
  return { instance: () => store, close: () => undefined };
}, { describe, it });

for (const resp of [2, 3] as const) {
  describeEventStoreContract(`RedisEventStore (RESP${resp})`, (limits) => redisFixture(server, resp, (client, prefix) => new RedisEventStore(client, { ...limits, prefix }), (store) => store.close()), { describe, it });
}

async function replayAll(store: EventStore, owner: string, id: string): Promise<[string, JsonRpcMessage][] | undefined> {
  const events: [string, JsonRpcMessage][] = [];
  const stream = await store.replayAfter(owner, id, (eventId, message) => {
    events.push([eventId, message]);
  });
  return stream === undefined ? undefined : events;
}

describe('RedisEventStore', () => {
  it('answers exactly as MemoryEventStore for any sequence of appends and releases under tight bounds', async () => {
    const client = await connectClient(redis);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), owner: fc.constantFrom('o1', 'o2', 'o3'), stream: fc.constantFrom('a', 'b', 'c', 'd'), size: fc.nat(300), priming: fc.boolean() }),
      fc.record({ kind: fc.constant('release' as const), owner: fc.constantFrom('o1', 'o2', 'o3') }),
    );
    const limits = { maxBytesPerStream: 1_200, maxBytesPerOwner: 2_000, maxBytesPerClient: 3_000, maxBytes: 5_000, maxEventsPerStream: 5, maxEvents: 12 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const memory = new MemoryEventStore(limits);
        const shared = new RedisEventStore(client, { ...limits, prefix: freshPrefix() });
        // Stream ids are per owner (another owner's stream cannot be written), event ids compared by position.
        const ids: [string, string, string][] = [];
        for (const step of ops) {
          if (step.kind === 'release') {
            memory.release(step.owner);
            await shared.release(step.owner);
            continue;
          }
          const stream = `${step.owner}-${step.stream}`;
          const client = step.owner === 'o3' ? 'c2' : 'c1';
          const message = step.priming ? undefined : { ...note(step.size), params: { data: 'x'.repeat(step.size) } };
          ids.push([step.owner, memory.append(step.owner, stream, message, client), await shared.append(step.owner, stream, message, client)]);
        }
        const positions = new Map(ids.map(([, m, r]) => [r, m]));
        for (const [owner, memoryId, redisId] of ids) {
          const expected = await replayAll(memory, owner, memoryId);
          const actual = await replayAll(shared, owner, redisId);
          expect(actual?.map(([id, message]) => [positions.get(id), message])).toEqual(expected);
        }
        const usage = await shared.usage('o1', 'c1');
        expect(usage).toEqual({ bytes: memory.bytes, events: memory.size, ownerBytes: memory.bytesOf('o1'), clientBytes: memory.bytesOfClient('c1') });
        await shared.close();
      }),
      { numRuns: 40 },
    );
  });

  it('keeps every key and channel under its prefix, and leaves nothing behind once every owner is released', async () => {
    const prefix = freshPrefix();
    const store = new RedisEventStore(await connectClient(redis), { prefix });
    await store.append('sess-1', 'st-1', note(1), 'alice');
    await store.append('sess-2', 'st-2', note(2), 'bob');
    const keys = await redis.command('KEYS', `${prefix}*`);
    expect(keys.split('\r\n').filter((line) => line.startsWith(prefix)).sort()).toEqual(
      ['c:alice', 'c:bob', 'cl:alice', 'cl:bob', 'exp', 'm:st-1', 'm:st-2', 'o:sess-1', 'o:sess-2', 'ol:sess-1', 'ol:sess-2', 's:st-1', 's:st-2', 'seq', 'total'].map((key) => `${prefix}ev:${key}`),
    );
    await store.release('sess-1');
    await store.release('sess-2');
    expect(await store.usage('sess-1', 'alice')).toEqual({ bytes: 0, events: 0, ownerBytes: 0, clientBytes: 0 });
    const left = (await redis.command('KEYS', `${prefix}*`)).split('\r\n').filter((line) => line.startsWith(prefix)).sort();
    expect(left).toEqual([`${prefix}ev:seq`, `${prefix}ev:total`]);
  });

  it('drops a stream nobody wrote for idleTtlMs (its instance died without releasing it), with its bytes', async () => {
    const store = new RedisEventStore(await connectClient(redis), { prefix: freshPrefix(), idleTtlMs: 50 });
    const stale = await store.append('dead', 's1', note(1));
    await store.append('dead', 's1', note(2));
    await new Promise((resolve) => setTimeout(resolve, 80));
    const fresh = await store.append('alive', 's2', note(3));
    expect(await replayAll(store, 'dead', stale)).toBeUndefined();
    expect(await replayAll(store, 'alive', fresh)).toEqual([]);
    expect((await store.usage('dead')).ownerBytes).toBe(0);
  });

  it('refuses a stream of another owner with a clear error', async () => {
    const store = new RedisEventStore(await connectClient(redis), { prefix: freshPrefix() });
    await store.append('a', 's', note(1));
    await expect(store.append('b', 's', note(2))).rejects.toThrow('event store: stream "s" belongs to another owner');
  });

  it('Redis killed mid-test: calls reject with StoreUnavailableError, a follower ends, and everything works again once Redis is back', async () => {
    const prefix = freshPrefix();
    const client = await connectClient(redis);
    const subscriber = new RedisSubscriber(client, { prefix });
    const store = new RedisEventStore(client, { prefix, subscriber, retryAfterSeconds: 2 });
    const first = await store.append('o', 's', note(1));
    const seen: JsonRpcMessage[] = [];
    const follow = await store.follow('o', first, (_, message) => {
      seen.push(message);
    }, new AbortController().signal);

    await redis.stop('SIGKILL');
    const failure = await store.append('o', 's', note(2)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as StoreUnavailableError).retryAfterSeconds).toBe(2);
    await expect(store.replayAfter('o', first, () => undefined)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.release('o')).rejects.toBeInstanceOf(StoreUnavailableError);

    await redis.start();
    // The subscriber's reconnect makes the follower read again: the stream is gone with the old server
    // ('dropped'), or the command connection is not back yet ('unavailable'); either way it ends.
    expect(['dropped', 'unavailable']).toContain(await follow!.done);
    await waitFor('appends to succeed again', async () => store.append('o', 's', note(3)).then(() => true, () => false), 10_000);
    const again = await store.append('o', 's', note(4));
    expect(await replayAll(store, 'o', again)).toEqual([]);
    await subscriber.close();
  });

  it('a hung Redis fails calls after commandTimeoutMs', async () => {
    const store = new RedisEventStore(await connectClient(redis), { prefix: freshPrefix(), commandTimeoutMs: 150 });
    await store.append('o', 's', note(1));
    redis.freeze();
    try {
      await expect(store.append('o', 's', note(2))).rejects.toThrow(new StoreUnavailableError('Shared state is unavailable: Redis did not answer EVALSHA within 150 ms; retry in 5 s'));
    } finally {
      redis.thaw();
    }
  });
});
