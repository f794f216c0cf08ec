/**
 * The NotificationBus contract as a test suite: an event published on any
 * instance reaches every subscriber of every instance exactly once, in the
 * order one instance published them.
 */
import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import type { MaybePromise } from '../../stores/contracts.js';
import type { BusEvent, NotificationBus } from '../../stores/bus.js';
import { waitFor, type ContractTestApi } from './api.js';

/** A shared backend: `instance()` answers a bus as another process on it would hold (may answer the same bus). */
export interface BusFixture {
  instance(): MaybePromise<NotificationBus>;
  close(): MaybePromise<void>;
}

const changed = (list: 'tools' | 'resources' | 'prompts'): BusEvent => ({ type: 'list_changed', list });
const updated = (uri: string): BusEvent => ({ type: 'resource_updated', uri });

async function subscribed(bus: NotificationBus, into: BusEvent[]): Promise<() => void> {
  const stop = bus.subscribe((event) => into.push(event));
  await bus.ready?.();
  return stop;
}

export function describeNotificationBusContract(name: string, factory: () => MaybePromise<BusFixture>, test: ContractTestApi): void {
  const withFixture = (body: (fixture: BusFixture) => Promise<void>) => async (): Promise<void> => {
    const fixture = await factory();
    try {
      await body(fixture);
    } finally {
      await fixture.close();
    }
  };

  test.describe(`NotificationBus contract: ${name}`, () => {
    test.it(
      'delivers an event published on one instance to the subscribers of every instance, the publisher included, exactly once and in order',
      withFixture(async (fixture) => {
        const a = await fixture.instance();
        const b = await fixture.instance();
        const onA: BusEvent[] = [];
        const onB: BusEvent[] = [];
        const onB2: BusEvent[] = [];
        await subscribed(a, onA);
        await subscribed(b, onB);
        await subscribed(b, onB2);
        const sent = [changed('tools'), updated('file:///a.txt'), changed('prompts'), updated('x://ü/😀'), changed('resources')];
        for (const event of sent) await a.publish(event);
        for (const seen of [onA, onB, onB2]) await waitFor('every event on every subscriber', () => seen.length >= sent.length);
        // A last event proves nothing more was on its way (delivery is in order).
        await b.publish(changed('tools'));
        for (const seen of [onA, onB, onB2]) await waitFor('the last event', () => seen.length >= sent.length + 1);
        for (const seen of [onA, onB, onB2]) deepStrictEqual(seen, [...sent, changed('tools')]);
      }),
    );

    test.it(
      'stops delivering to an unsubscribed listener, and a throwing listener does not starve the others',
      withFixture(async (fixture) => {
        const a = await fixture.instance();
        const b = await fixture.instance();
        const gone: BusEvent[] = [];
        const kept: BusEvent[] = [];
        const stop = await subscribed(b, gone);
        b.subscribe(() => {
          throw new Error('broken listener');
        });
        await subscribed(b, kept);
        await a.publish(updated('file:///1'));
        await waitFor('the first event', () => kept.length === 1 && gone.length === 1);
        stop();
        await a.publish(updated('file:///2'));
        await waitFor('the second event', () => kept.length === 2);
        deepStrictEqual(gone, [updated('file:///1')]);
        deepStrictEqual(kept, [updated('file:///1'), updated('file:///2')]);
      }),
    );

    test.it(
      'keeps events apart from concurrent publishers on several instances (each one once)',
      withFixture(async (fixture) => {
        const a = await fixture.instance();
        const b = await fixture.instance();
        const seen: BusEvent[] = [];
        await subscribed(a, seen);
        const uris = Array.from({ length: 20 }, (_, i) => `file:///${i}`);
        await Promise.all(uris.map(async (uri, i) => (i % 2 === 0 ? a : b).publish(updated(uri))));
        await waitFor('20 events', () => seen.length >= uris.length);
        await a.publish(changed('tools'));
        await waitFor('the last event', () => seen.length >= uris.length + 1);
        strictEqual(seen.length, uris.length + 1);
        deepStrictEqual(seen.slice(0, -1).map((event) => (event.type === 'resource_updated' ? event.uri : '')).sort(), [...uris].sort());
      }),
    );
  });
}
