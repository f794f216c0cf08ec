/** The engine's in-flight list: behaves like a Set of calls under any sequence of adds and deletes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InflightCall } from '../../../src/transports/http/context.js';
import { InflightCalls } from '../../../src/transports/http/inflight-calls.js';

const call = (): InflightCall => ({ cancel: () => undefined });

describe('InflightCalls', () => {
  it('holds exactly what a Set would, in any order of adds, repeated adds and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(7)), { maxLength: 200 }), (ops) => {
        const calls = Array.from({ length: 8 }, call);
        const list = new InflightCalls();
        const model = new Set<InflightCall>();
        for (const [add, i] of ops) {
          if (add) {
            list.add(calls[i]!);
            model.add(calls[i]!);
          } else {
            list.delete(calls[i]!);
            model.delete(calls[i]!);
          }
          expect(list.size).toBe(model.size);
        }
        expect(new Set(list.list())).toEqual(model);
        expect(list.list()).toHaveLength(model.size);
      }),
    );
  });

  it('lets a call remove itself while the list is walked (shutdown cancels each)', () => {
    const list = new InflightCalls();
    const calls: InflightCall[] = [];
    for (let i = 0; i < 5; i++) {
      const c: InflightCall = { cancel: () => list.delete(c) };
      calls.push(c);
      list.add(c);
    }
    for (const c of list.list()) c.cancel('server shutting down');
    expect(list.size).toBe(0);
    expect(list.list()).toEqual([]);
    // A removed call holds no link to the others (nothing kept alive through it).
    for (const c of calls) expect([c.inflightPrev, c.inflightNext]).toEqual([undefined, undefined]);
  });
});
