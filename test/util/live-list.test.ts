/** LiveList: the in-flight list that replaces a churned Set (src/util/live-list.ts), against an array as the model. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveEntry, LiveList } from '../../src/util/live-list.js';

/** A list of plain values, each in an entry of its own (as the gateway keeps request contexts). */
class Values<V> {
  readonly list = new LiveList<LiveEntry<V>>();
  add = (value: V): LiveEntry<V> => this.list.add(new LiveEntry(value));
  delete = (entry: LiveEntry<V>): void => this.list.delete(entry);
  get size(): number {
    return this.list.size;
  }
  last = (): V | undefined => this.list.last()?.value;
  clear = (): V[] => this.list.clear().map((e) => e.value);
  *[Symbol.iterator](): Iterator<V> {
    for (const e of this.list) yield e.value;
  }
}

describe('LiveList', () => {
  it('keeps the order added, its size and its last through any adds and deletes (model: an array)', () => {
    const op = fc.oneof(fc.record({ add: fc.integer() }), fc.record({ del: fc.nat() }), fc.record({ again: fc.nat() }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const list = new Values<number>();
        const model: LiveEntry<number>[] = [];
        const gone: LiveEntry<number>[] = [];
        for (const o of ops) {
          if ('add' in o) model.push(list.add(o.add));
          else if ('del' in o && model.length > 0) {
            const [entry] = model.splice(o.del % model.length, 1);
            list.delete(entry!);
            gone.push(entry!);
          } else if ('again' in o && gone.length > 0) list.delete(gone[o.again % gone.length]!); // twice: nothing
          expect(list.size).toBe(model.length);
          expect([...list]).toEqual(model.map((e) => e.value));
          expect(list.last()).toBe(model.at(-1)?.value);
        }
      }),
    );
  });

  it('an entry that left points nowhere (nothing dead holds anything alive)', () => {
    const list = new Values<object>();
    const a = list.add({});
    const b = list.add({});
    const c = list.add({});
    list.delete(b);
    expect([b.livePrev, b.liveNext, b.liveLinked]).toEqual([undefined, undefined, false]);
    expect(a.liveNext).toBe(c);
    expect(c.livePrev).toBe(a);
    const all = list.clear();
    expect(all).toEqual([a.value, c.value]);
    for (const e of [a, c]) expect([e.livePrev, e.liveNext, e.liveLinked]).toEqual([undefined, undefined, false]);
    expect(list.size).toBe(0);
    expect([...list]).toEqual([]);
    list.delete(a); // after clear: nothing
    expect(list.size).toBe(0);
  });

  // While visiting `at`, delete these (indexes into a, b, c, d): what is seen, and what is left.
  it.each([
    ['the current one, then (at b) a later one', { a: [0], b: [3] }, ['a', 'b', 'c'], ['b', 'c']],
    ['the next one (the walk goes on past it)', { a: [1] }, ['a', 'c', 'd'], ['a', 'c', 'd']],
    ['the current and the next ones', { a: [0, 1] }, ['a', 'c', 'd'], ['c', 'd']],
  ] as const)('iterating while deleting %s skips only what left', (_what, deletes: Partial<Record<string, readonly number[]>>, seenExpected, left) => {
    const list = new Values<string>();
    const entries = ['a', 'b', 'c', 'd'].map((v) => list.add(v));
    const seen: string[] = [];
    for (const v of list) {
      seen.push(v);
      for (const i of deletes[v] ?? []) list.delete(entries[i]!);
    }
    expect(seen).toEqual(seenExpected);
    expect([...list]).toEqual(left);
  });

  it('iterating while any entries are deleted visits exactly those still there when reached (model: an array)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.array(fc.nat(), { maxLength: 3 }), { maxLength: 12 }), (n, deletes) => {
        const list = new Values<number>();
        const entries = Array.from({ length: n }, (_, i) => list.add(i));
        const gone = new Set<number>();
        const seen: number[] = [];
        const expected: number[] = [];
        let step = 0;
        for (const v of list) {
          seen.push(v);
          for (const d of deletes[step++] ?? []) {
            list.delete(entries[d % n]!);
            gone.add(d % n);
          }
        }
        // Replay: what the model visits.
        const model = new Set<number>();
        step = 0;
        for (let i = 0; i < n; i++) {
          if (model.has(i)) continue;
          expected.push(i);
          for (const d of deletes[step++] ?? []) model.add(d % n);
        }
        expect(seen).toEqual(expected);
        expect([...list]).toEqual(entries.map((e) => e.value).filter((v) => !gone.has(v)));
      }),
    );
  });
});

it('an item carries its own links: added twice it is there once, deleted it points nowhere', () => {
  class Call {
    liveLinked = false;
    livePrev: Call | undefined = undefined;
    liveNext: Call | undefined = undefined;
  }
  const list = new LiveList<Call>();
  const [a, b] = [new Call(), new Call()];
  list.add(a);
  list.add(a);
  list.add(b);
  expect(list.size).toBe(2);
  expect([...list]).toEqual([a, b]);
  list.delete(a);
  expect([a.livePrev, a.liveNext, a.liveLinked, b.livePrev]).toEqual([undefined, undefined, false, undefined]);
  expect(list.last()).toBe(b);
});
