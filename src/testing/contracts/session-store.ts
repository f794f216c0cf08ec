/**
 * The SharedSessionStore contract (src/transports/http/shared.ts) as a test
 * suite: create only when absent, sessions bound to their principal, updates
 * that bump `rev` and keep the idle TTL, touch on load, `hold`, a delete that
 * also clears the reverse index of subscriptions, expiry after the idle time,
 * and every call from any instance on the same backend.
 */
import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import type { MaybePromise } from '../../stores/contracts.js';
import type { SessionRecord } from '../../protocol/wire/session-record.js';
import type { SharedSession, SharedSessionStore } from '../../stores/shared-sessions.js';
import { waitFor, type ContractTestApi } from './api.js';

/** One backend whose sessions expire after `idleTimeoutMs`; `instance()` answers the store as another process on it would hold it. */
export interface SessionStoreFixture {
  instance(): MaybePromise<SharedSessionStore>;
  close(): MaybePromise<void>;
}

export type SessionStoreFactory = (options: { idleTimeoutMs: number }) => MaybePromise<SessionStoreFixture>;

/** Long enough that no call of a test on a loaded machine outlives it by accident. */
const LONG_IDLE_MS = 60_000;
/** Short enough to see expiry, long enough that a use every TICK_MS always comes before it. */
const SHORT_IDLE_MS = 1_500;
const TICK_MS = 100;

const record = (subscriptions: string[] = [], extra: Partial<SessionRecord> = {}): SessionRecord => ({
  v: 1,
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'contract', version: '1.0.0' },
  clientCapabilities: { elicitation: {} },
  serverCapabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
  subscriptions,
  ...extra,
});

const fresh = (principal?: string, subscriptions: string[] = []): SharedSession => ({
  record: record(subscriptions),
  createdAt: 1_700_000_000_000,
  rev: 1,
  ...(principal === undefined ? {} : { principal }),
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (ids: string[]): string[] => [...ids].sort();

export function describeSessionStoreContract(name: string, factory: SessionStoreFactory, test: ContractTestApi): void {
  const using = (idleTimeoutMs: number, body: (a: SharedSessionStore, b: SharedSessionStore) => Promise<void>) => async (): Promise<void> => {
    const fixture = await factory({ idleTimeoutMs });
    try {
      await body(await fixture.instance(), await fixture.instance());
    } finally {
      await fixture.close();
    }
  };

  test.describe(`SessionStore contract: ${name}`, () => {
    test.it('creates a session only when its id is free, and every instance loads what was stored', using(LONG_IDLE_MS, async (a, b) => {
      strictEqual(a.idleTimeoutMs, LONG_IDLE_MS);
      await a.ping();
      strictEqual(await a.create('s1', 'alice', fresh('alice')), true);
      deepStrictEqual(await b.load('s1', 'alice'), { record: record(), principal: 'alice', createdAt: 1_700_000_000_000, rev: 1 });
      // Taken: refused, and the first session is untouched.
      strictEqual(await b.create('s1', 'alice', { ...fresh('alice', ['file:///x']), createdAt: 5 }), false);
      deepStrictEqual(await a.load('s1', 'alice'), { record: record(), principal: 'alice', createdAt: 1_700_000_000_000, rev: 1 });
      strictEqual(await a.create('anon', undefined, fresh()), true);
      deepStrictEqual(await b.load('anon', undefined), { record: record(), createdAt: 1_700_000_000_000, rev: 1 });
      strictEqual(await b.load('no-such-session', undefined), undefined);
      // Two instances racing for one id: exactly one wins.
      const raced = await Promise.all([a.create('race', undefined, fresh()), b.create('race', undefined, fresh())]);
      deepStrictEqual(sorted(raced.map(String)), ['false', 'true']);
    }));

    test.it('binds a session to its principal: another principal, or none, cannot load, change, hold or delete it', using(LONG_IDLE_MS, async (a, b) => {
      await a.create('bound', 'alice', fresh('alice', ['file:///a']));
      for (const other of ['mallory', undefined]) {
        strictEqual(await b.load('bound', other), undefined);
        strictEqual(await b.update('bound', other, record(['file:///evil'])), undefined);
        strictEqual(await b.hold('bound', other, 'node-m'), undefined);
        strictEqual(await b.delete('bound', other), undefined);
      }
      const kept = await a.load('bound', 'alice');
      deepStrictEqual(kept, { record: record(['file:///a']), principal: 'alice', createdAt: 1_700_000_000_000, rev: 1 });
      deepStrictEqual(await b.subscribers('file:///evil'), []);
    }));

    test.it('update replaces the record and bumps rev on every instance; hold names the GET stream holder without a new rev', using(LONG_IDLE_MS, async (a, b) => {
      await a.create('u', 'alice', fresh('alice'));
      const updated = await b.update('u', 'alice', record([], { logLevel: 'error' }));
      deepStrictEqual(updated, { record: record([], { logLevel: 'error' }), principal: 'alice', createdAt: 1_700_000_000_000, rev: 2 });
      deepStrictEqual(await a.load('u', 'alice'), updated);
      const held = await a.hold('u', 'alice', 'node-b');
      deepStrictEqual(held, { ...updated, holder: 'node-b' });
      deepStrictEqual(await b.load('u', 'alice'), { ...updated, holder: 'node-b' });
      strictEqual((await b.update('u', 'alice', record(['file:///1'])))?.rev, 3);
      strictEqual((await a.load('u', 'alice'))?.holder, 'node-b');
      strictEqual(await a.update('gone', 'alice', record()), undefined);
      strictEqual(await a.hold('gone', 'alice', 'node-b'), undefined);
    }));

    test.it('indexes subscriptions by URI: an update adds and removes entries, delete removes them all and answers what it removed', using(LONG_IDLE_MS, async (a, b) => {
      await a.create('one', 'alice', fresh('alice', ['file:///shared']));
      await b.create('two', undefined, fresh());
      deepStrictEqual(await b.subscribers('file:///shared'), ['one']);
      await b.update('two', undefined, record(['file:///shared', 'file:///only-two']));
      await a.update('one', 'alice', record(['file:///shared', 'file:///only-one']));
      deepStrictEqual(sorted(await a.subscribers('file:///shared')), ['one', 'two']);
      deepStrictEqual(await b.subscribers('file:///only-one'), ['one']);
      await a.update('one', 'alice', record(['file:///only-one']));
      deepStrictEqual(await b.subscribers('file:///shared'), ['two']);

      const removed = await b.delete('one', 'alice');
      deepStrictEqual(removed, { record: record(['file:///only-one']), principal: 'alice', createdAt: 1_700_000_000_000, rev: 3 });
      deepStrictEqual(await a.subscribers('file:///only-one'), []);
      deepStrictEqual(await a.subscribers('file:///shared'), ['two']);
      strictEqual(await a.load('one', 'alice'), undefined);
      strictEqual(await a.update('one', 'alice', record(['file:///only-one'])), undefined);
      strictEqual(await a.delete('one', 'alice'), undefined);
      deepStrictEqual(await b.subscribers('file:///only-one'), []);
      // The id is free again.
      strictEqual(await a.create('one', 'alice', fresh('alice')), true);
      strictEqual((await b.load('one', 'alice'))?.rev, 1);
    }));

    test.it('count (where the store has it) counts live sessions per owner and in total; a refused create, a delete and expiry do not count', using(SHORT_IDLE_MS, async (a, b) => {
      if (a.count === undefined) return;
      const owned = (owner: string): SharedSession => ({ ...fresh(), owner });
      deepStrictEqual(await a.count('addr:10.0.0.1'), { owner: 0, total: 0 });
      strictEqual(await a.create('c1', undefined, owned('addr:10.0.0.1')), true);
      strictEqual(await b.create('c2', 'bob', { ...owned('bob'), principal: 'bob' }), true);
      strictEqual(await b.create('c3', undefined, owned('addr:10.0.0.1')), true);
      strictEqual(await a.create('c3', undefined, owned('addr:10.0.0.1')), false);
      deepStrictEqual(await b.count!('addr:10.0.0.1'), { owner: 2, total: 3 });
      deepStrictEqual(await a.count('bob'), { owner: 1, total: 3 });
      // Every instance reads the owner back: a copy restored elsewhere charges the same client.
      strictEqual((await b.load('c1', undefined))?.owner, 'addr:10.0.0.1');
      await b.delete('c1', undefined);
      deepStrictEqual(await a.count('addr:10.0.0.1'), { owner: 1, total: 2 });
      await waitFor('the unused sessions to stop counting', async () => (await b.count!('bob')).total === 0, SHORT_IDLE_MS + 10_000);
      deepStrictEqual(await a.count('addr:10.0.0.1'), { owner: 0, total: 0 });
    }));

    test.it('load restarts the idle time: a session used more often than its idle time lives on', using(SHORT_IDLE_MS, async (a, b) => {
      await a.create('busy', undefined, fresh());
      const until = Date.now() + 2 * SHORT_IDLE_MS;
      for (let turn = 0; Date.now() < until; turn++) {
        ok((await (turn % 2 === 0 ? a : b).load('busy', undefined)) !== undefined, 'a session in use expired');
        await sleep(TICK_MS);
      }
    }));

    test.it('expires after the idle time without use, on every instance, and drops out of the subscription index', using(SHORT_IDLE_MS, async (a, b) => {
      await a.create('idle', 'alice', fresh('alice', ['file:///idle']));
      deepStrictEqual(await b.subscribers('file:///idle'), ['idle']);
      // subscribers() does not touch: waiting on it lets the session expire.
      await waitFor('the idle session to expire', async () => (await b.subscribers('file:///idle')).length === 0, SHORT_IDLE_MS + 10_000);
      strictEqual(await a.load('idle', 'alice'), undefined);
      strictEqual(await b.hold('idle', 'alice', 'node-b'), undefined);
      strictEqual(await b.update('idle', 'alice', record()), undefined);
      strictEqual(await a.create('idle', 'alice', fresh('alice')), true);
    }));

    test.it('update and hold keep the idle time: a session only updated still expires', using(SHORT_IDLE_MS, async (a, b) => {
      await a.create('written', undefined, fresh());
      let turn = 0;
      // Updated (and held) every tick and never loaded: it must expire all the same.
      await waitFor(
        'a session that is only updated to expire',
        async () => {
          const store = turn++ % 2 === 0 ? a : b;
          const updated = await store.update('written', undefined, record([], { logLevel: turn % 3 === 0 ? 'info' : 'debug' }));
          if (updated !== undefined) await store.hold('written', undefined, `node-${turn}`);
          await sleep(TICK_MS);
          return updated === undefined;
        },
        SHORT_IDLE_MS + 10_000,
      );
      strictEqual(await b.load('written', undefined), undefined);
    }));
  });
}
