/** The memory stores against their contracts (src/stores/contracts.ts). */
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../../src/jsonrpc/message.js';
import { MemoryEventStore, MemorySessionStore } from '../../../src/http.js';
import { eventually } from './support.js';

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });

async function replay(store: MemoryEventStore, lastEventId: string): Promise<{ stream: string | undefined; events: [string, JsonRpcMessage][] }> {
  const events: [string, JsonRpcMessage][] = [];
  const stream = await store.replayAfter('o', lastEventId, (id, message) => {
    events.push([id, message]);
  });
  return { stream, events };
}

describe('MemoryEventStore', () => {
  it('answers unique ids that identify their stream, and replays what follows an id in order', async () => {
    const store = new MemoryEventStore();
    const priming = store.append('o', 'a');
    const ids = [1, 2, 3].map((n) => store.append('o', 'a', note(n)));
    store.append('o', 'b', note(99));
    expect(new Set([priming, ...ids]).size).toBe(4);
    expect(await replay(store, priming)).toEqual({ stream: 'a', events: ids.map((id, i) => [id, note(i + 1)]) });
    expect(await replay(store, ids[1]!)).toEqual({ stream: 'a', events: [[ids[2], note(3)]] });
    expect(await replay(store, ids[2]!)).toEqual({ stream: 'a', events: [] });
  });

  it('answers undefined for unknown ids', async () => {
    const store = new MemoryEventStore();
    store.append('o', 'a', note(1));
    for (const id of ['', 'a', 'a:', 'a:x', 'a:-1', 'a:7', 'zzz:0']) expect((await replay(store, id)).stream).toBeUndefined();
  });

  it('bounds each stream; replay from an evicted position answers undefined rather than a gap', async () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 3 });
    const ids = [1, 2, 3, 4, 5].map((n) => store.append('o', 'a', note(n)));
    expect(store.size).toBe(3);
    expect((await replay(store, ids[0]!)).stream).toBeUndefined();
    expect((await replay(store, ids[1]!)).events.map(([, m]) => m)).toEqual([note(3), note(4), note(5)]);
  });

  it('bounds the total, dropping the least recently written stream first', async () => {
    const store = new MemoryEventStore({ maxEvents: 4 });
    const a = store.append('o', 'a', note(1));
    store.append('o', 'a', note(2));
    const b = store.append('o', 'b', note(1));
    store.append('o', 'b', note(2));
    store.append('o', 'c', note(1));
    expect(store.size).toBeLessThanOrEqual(4);
    expect((await replay(store, a)).stream).toBeUndefined();
    expect((await replay(store, b)).events.length).toBe(1);
  });
});

describe('MemorySessionStore', () => {
  it('gets, sets, touches, deletes and counts', () => {
    const store = new MemorySessionStore<string>({ idleTimeoutMs: 0 });
    store.set('a', 'A');
    store.set('b', 'B');
    expect(store.get('a')).toBe('A');
    expect(store.size()).toBe(2);
    store.touch('a');
    store.touch('missing');
    expect(store.values()).toEqual(['B', 'A']);
    expect(store.delete('a')).toBe(true);
    expect(store.delete('a')).toBe(false);
    expect(store.get('a')).toBeUndefined();
    expect(store.size()).toBe(1);
    store.close();
  });

  it('expires idle entries through the listener; an entry the listener keeps stays', async () => {
    const store = new MemorySessionStore<string>({ idleTimeoutMs: 20 });
    const asked: string[] = [];
    store.onExpire((id) => {
      asked.push(id);
      return id !== 'busy';
    });
    store.set('idle', 'I');
    store.set('busy', 'B');
    await eventually(() => store.get('idle') === undefined && asked.includes('busy'));
    expect(store.get('busy')).toBe('B');
    store.close();
  });

  it('never expires an entry sooner than idleTimeoutMs after its last use, also one used again within the reorder slack', async () => {
    const idle = 160;
    const store = new MemorySessionStore<string>({ idleTimeoutMs: idle });
    const lastUse = new Map<string, number>();
    const expiredAt = new Map<string, number>();
    store.onExpire((id) => {
      expiredAt.set(id, Date.now());
      return true;
    });
    for (const id of ['a', 'b', 'c']) {
      store.set(id, id.toUpperCase());
      lastUse.set(id, Date.now());
    }
    // Used again at once (within the slack: it keeps its place before b and c), then later (moved).
    store.touch('a');
    lastUse.set('a', Date.now());
    await new Promise((resolve) => setTimeout(resolve, 60));
    store.touch('b');
    lastUse.set('b', Date.now());
    await eventually(() => expiredAt.size === 3);
    for (const [id, at] of expiredAt) expect(at - lastUse.get(id)!).toBeGreaterThanOrEqual(idle);
    store.close();
  });

  it('does not expire anything with idleTimeoutMs 0', () => {
    const store = new MemorySessionStore<string>({ idleTimeoutMs: 0 });
    store.onExpire(() => true);
    store.set('a', 'A');
    expect(store.get('a')).toBe('A');
  });
});
