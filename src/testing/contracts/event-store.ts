/**
 * The EventStore contract (src/stores/contracts.ts) as a test suite: ids,
 * ordered replay, owner isolation, the byte and count bounds (never a partial
 * replay), release, and, when the store has them, `finish` and `follow`
 * across instances.
 */
import { deepStrictEqual, notStrictEqual, ok, rejects, strictEqual } from 'node:assert/strict';
import type { JsonRpcMessage } from '../../jsonrpc/message.js';
import type { EventStore, EventStoreLimits, FollowEnd, MaybePromise, StreamFollow } from '../../stores/contracts.js';
import { waitFor, type ContractTestApi } from './api.js';

/** One backend with the given limits; `instance()` answers the store as another process on it would hold it. */
export interface EventStoreFixture {
  instance(): MaybePromise<EventStore>;
  close(): MaybePromise<void>;
}

export type EventStoreFactory = (limits: EventStoreLimits) => MaybePromise<EventStoreFixture>;

const note = (n: number, text = ''): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n, ...(text !== '' && { message: text }) } });

type Events = [string, JsonRpcMessage][];

async function replay(store: EventStore, owner: string, lastEventId: string): Promise<{ stream: string | undefined; events: Events }> {
  const events: Events = [];
  const stream = await store.replayAfter(owner, lastEventId, (id, message) => {
    events.push([id, message]);
  });
  return { stream, events };
}

async function appendAll(store: EventStore, owner: string, streamId: string, messages: JsonRpcMessage[], client?: string): Promise<string[]> {
  const ids: string[] = [];
  for (const message of messages) ids.push(await store.append(owner, streamId, message, client));
  return ids;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

interface Following {
  follow: StreamFollow | undefined;
  events: Events;
  controller: AbortController;
}

async function startFollow(store: EventStore, owner: string, lastEventId: string, gate?: () => Promise<void>): Promise<Following> {
  const events: Events = [];
  const controller = new AbortController();
  const follow = await store.follow!(owner, lastEventId, async (id, message) => {
    events.push([id, message]);
    await gate?.();
  }, controller.signal);
  return { follow, events, controller };
}

export function describeEventStoreContract(name: string, factory: EventStoreFactory, test: ContractTestApi): void {
  const using = (limits: EventStoreLimits, body: (store: EventStore, fixture: EventStoreFixture) => Promise<void>) => async (): Promise<void> => {
    const fixture = await factory(limits);
    try {
      await body(await fixture.instance(), fixture);
    } finally {
      await fixture.close();
    }
  };

  test.describe(`EventStore contract: ${name}`, () => {
    test.it('answers unique ids that identify their stream, and replays what follows an id in order, priming positions skipped', using({}, async (store) => {
      const priming = await store.append('o', 'a');
      const ids = await appendAll(store, 'o', 'a', [note(1), note(2, 'ü😀'), note(3)]);
      await store.append('o', 'b', note(99));
      strictEqual(new Set([priming, ...ids]).size, 4);
      deepStrictEqual(await replay(store, 'o', priming), { stream: 'a', events: ids.map((id, i): [string, JsonRpcMessage] => [id, i === 1 ? note(2, 'ü😀') : note(i + 1)]) });
      deepStrictEqual(await replay(store, 'o', ids[1]!), { stream: 'a', events: [[ids[2]!, note(3)]] });
      deepStrictEqual(await replay(store, 'o', ids[2]!), { stream: 'a', events: [] });
    }));

    test.it('answers undefined, writing nothing, for ids it never gave', using({}, async (store) => {
      const [id] = await appendAll(store, 'o', 'a', [note(1)]);
      for (const bad of ['', 'a', 'a:', 'a:x', 'a:-1', 'a:1.5', `${id!}99999`, 'zzz:0', ':1', '9'.repeat(400)]) deepStrictEqual(await replay(store, 'o', bad), { stream: undefined, events: [] });
    }));

    test.it("keeps owners apart: another owner's id replays nothing, its stream cannot be written, its release keeps mine", using({}, async (store) => {
      const mine = await appendAll(store, 'alice', 'a', [note(1), note(2)]);
      await appendAll(store, 'bob', 'b', [note(7)]);
      deepStrictEqual(await replay(store, 'bob', mine[0]!), { stream: undefined, events: [] });
      await rejects(async () => store.append('bob', 'a', note(666)));
      await store.release('bob');
      deepStrictEqual(await replay(store, 'alice', mine[0]!), { stream: 'a', events: [[mine[1]!, note(2)]] });
      if (store.finish !== undefined) {
        await store.finish('bob', 'a');
        await store.append('alice', 'a', note(3));
        strictEqual((await replay(store, 'alice', mine[1]!)).events.length, 1);
      }
    }));

    test.it('bounds events per stream: resuming from a dropped position answers undefined, never a gap', using({ maxEventsPerStream: 3 }, async (store) => {
      const ids = await appendAll(store, 'o', 'a', range(1, 5).map((n) => note(n)));
      deepStrictEqual(await replay(store, 'o', ids[0]!), { stream: undefined, events: [] });
      deepStrictEqual((await replay(store, 'o', ids[1]!)).events.map(([, m]) => m), [note(3), note(4), note(5)]);
    }));

    test.it('bounds bytes per stream, oldest first', using({ maxBytesPerStream: 1_000 }, async (store) => {
      const ids = await appendAll(store, 'o', 'a', range(1, 6).map((n) => note(n, 'x'.repeat(200))));
      deepStrictEqual(await replay(store, 'o', ids[0]!), { stream: undefined, events: [] });
      const kept = (await replay(store, 'o', ids.at(-3)!)).events;
      deepStrictEqual(kept.map(([id]) => id), ids.slice(-2));
    }));

    test.it("bounds bytes per owner by dropping that owner's least recently written stream, never another owner's", using({ maxBytesPerOwner: 2_500 }, async (store) => {
      const other = await appendAll(store, 'bob', 'b', [note(0), note(0, 'y'.repeat(1_500))]);
      const a = await appendAll(store, 'alice', 'a', [note(1), note(1, 'x'.repeat(600))]);
      const c = await appendAll(store, 'alice', 'c', [note(2), note(2, 'x'.repeat(600))]);
      await appendAll(store, 'alice', 'a', [note(3, 'x'.repeat(600))]);
      // 'c' was written least recently when 'a' went over the quota.
      deepStrictEqual((await replay(store, 'alice', c[0]!)).stream, undefined);
      deepStrictEqual((await replay(store, 'alice', a[0]!)).events.length, 2);
      deepStrictEqual(await replay(store, 'bob', other[0]!), { stream: 'b', events: [[other[1]!, note(0, 'y'.repeat(1_500))]] });
    }));

    test.it("bounds bytes per client across its owners, never touching another client's", using({ maxBytesPerClient: 3_000 }, async (store) => {
      // Each of client-1's streams holds about 1,400 bytes: two fit, the third makes room.
      const first = await appendAll(store, 's1', 'a', [note(1), note(1, 'x'.repeat(800))], 'client-1');
      const other = await appendAll(store, 's9', 'z', [note(9), note(9, 'z'.repeat(2_000))], 'client-2');
      const second = await appendAll(store, 's2', 'b', [note(2), note(2, 'x'.repeat(800))], 'client-1');
      strictEqual((await replay(store, 's1', first[0]!)).events.length, 1);
      const third = await appendAll(store, 's3', 'c', [note(3), note(3, 'x'.repeat(800))], 'client-1');
      deepStrictEqual((await replay(store, 's1', first[0]!)).stream, undefined);
      strictEqual((await replay(store, 's2', second[0]!)).events.length, 1);
      strictEqual((await replay(store, 's3', third[0]!)).events.length, 1);
      strictEqual((await replay(store, 's9', other[0]!)).events.length, 1);
    }));

    test.it("bounds the total without dropping another owner's events: the writer's own new event goes unkept", using({ maxEvents: 4, maxBytes: 1_000_000 }, async (store) => {
      const full = await appendAll(store, 'alice', 'a', range(1, 4).map((n) => note(n)));
      const late = await store.append('bob', 'b', note(5));
      deepStrictEqual((await replay(store, 'alice', full[0]!)).events.map(([, m]) => m), [note(2), note(3), note(4)]);
      deepStrictEqual((await replay(store, 'bob', late)).events, []);
    }));

    test.it('release forgets every stream of the owner; ids are never reused afterwards', using({}, async (store) => {
      const before = [...(await appendAll(store, 'o', 'a', [note(1), note(2)])), ...(await appendAll(store, 'o', 'b', [note(3)]))];
      const kept = await appendAll(store, 'p', 'k', [note(1), note(2)]);
      await store.release('o');
      for (const id of before) deepStrictEqual(await replay(store, 'o', id), { stream: undefined, events: [] });
      deepStrictEqual((await replay(store, 'p', kept[0]!)).events.length, 1);
      const after = await appendAll(store, 'o', 'a', [note(1), note(2)]);
      strictEqual(new Set([...before, ...after]).size, before.length + after.length);
      deepStrictEqual((await replay(store, 'o', before[0]!)).stream, undefined);
      deepStrictEqual((await replay(store, 'o', after[0]!)).events, [[after[1]!, note(2)]]);
    }));

    test.it('follow (when the store has it): another instance replays what was missed, then follows live until the stream is finished', using({}, async (a, fixture) => {
      if (a.follow === undefined || a.finish === undefined) return;
      const b = await fixture.instance();
      const priming = await a.append('o', 's');
      const missed = await appendAll(a, 'o', 's', [note(1), note(2)]);
      const following = await startFollow(b, 'o', priming);
      ok(following.follow !== undefined);
      strictEqual(following.follow.streamId, 's');
      deepStrictEqual(following.events.map(([id]) => id), missed);
      const live = await appendAll(a, 'o', 's', [note(3), note(4)]);
      await a.append('o', 's');
      const last = await a.append('o', 's', { jsonrpc: '2.0', id: 1, result: {} });
      await a.finish('o', 's');
      strictEqual(await following.follow.done, 'finished' satisfies FollowEnd);
      deepStrictEqual(following.events, [...missed.map((id, i): [string, JsonRpcMessage] => [id, note(i + 1)]), [live[0]!, note(3)], [live[1]!, note(4)], [last, { jsonrpc: '2.0', id: 1, result: {} }]]);
      // A finished stream: replayed, then done at once.
      const again = await startFollow(b, 'o', missed[1]!);
      strictEqual(await again.follow!.done, 'finished');
      strictEqual(again.events.length, 3);
    }));

    test.it('follow: undefined when replay would be; aborted by its signal; dropped on release', using({}, async (a, fixture) => {
      if (a.follow === undefined) return;
      const b = await fixture.instance();
      const [id] = await appendAll(a, 'o', 's', [note(1)]);
      strictEqual((await startFollow(b, 'other', id!)).follow, undefined);
      strictEqual((await startFollow(b, 'o', 's:zz')).follow, undefined);
      const aborted = await startFollow(b, 'o', id!);
      aborted.controller.abort();
      strictEqual(await aborted.follow!.done, 'aborted');
      const released = await startFollow(b, 'o', id!);
      await a.append('o', 's', note(2));
      await waitFor('the live event', () => released.events.length === 1);
      await a.release('o');
      strictEqual(await released.follow!.done, 'dropped');
      deepStrictEqual(released.events.map(([, m]) => m), [note(2)]);
    }));

    test.it('follow: a follower that fell behind the bound ends dropped rather than skipping events', using({ maxEventsPerStream: 3 }, async (a, fixture) => {
      if (a.follow === undefined) return;
      const b = await fixture.instance();
      const [first] = await appendAll(a, 'o', 's', [note(0)]);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const slow = await startFollow(b, 'o', first!, () => held);
      await a.append('o', 's', note(1));
      await waitFor('the follower to hold the first event', () => slow.events.length === 1);
      await appendAll(a, 'o', 's', range(2, 8).map((n) => note(n)));
      release();
      strictEqual(await slow.follow!.done, 'dropped');
      deepStrictEqual(slow.events.map(([, m]) => m), [note(1)]);
      notStrictEqual(slow.events.length, 0);
    }));
  });
}
