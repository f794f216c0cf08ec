/** IdTable: requests in flight by their counter ids (src/util/id-table.ts), against a Map as the model. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdTable } from '../../src/util/id-table.js';

describe('IdTable', () => {
  it('answers as a Map would for increasing ids, whatever stays in flight (stragglers included)', () => {
    const op = fc.oneof(fc.record({ add: fc.constant(true) }), fc.record({ del: fc.nat() }), fc.record({ get: fc.integer({ min: -2, max: 400 }) }));
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 4, 16), fc.array(op, { maxLength: 300 }), (capacity, ops) => {
        const table = new IdTable<string>(capacity);
        const model = new Map<number, string>();
        let next = 1;
        for (const o of ops) {
          if ('add' in o) {
            const id = next++;
            table.set(id, `v${id}`);
            model.set(id, `v${id}`);
          } else if ('del' in o) {
            const keys = [...model.keys()];
            // Sometimes an id never given, or one already gone: false, as a Map's delete.
            const id = keys.length === 0 || o.del % 5 === 0 ? o.del + next : keys[o.del % keys.length]!;
            expect(table.delete(id)).toBe(model.delete(id));
          } else expect(table.get(o.get)).toBe(model.get(o.get));
          expect(table.size).toBe(model.size);
        }
        expect(table.values()).toEqual([...model.keys()].sort((a, b) => a - b).map((id) => model.get(id)));
        for (const id of model.keys()) expect(table.get(id)).toBe(model.get(id));
      }),
    );
  });

  it('ids it never gives are not found, and not deleted', () => {
    const table = new IdTable<string>(4);
    table.set(1, 'one');
    for (const id of ['1', 1.5, 0, -1, NaN, Infinity, 2 ** 53, null, undefined, {}]) {
      expect(table.get(id)).toBeUndefined();
      expect(table.delete(id)).toBe(false);
    }
    expect(table.get(1)).toBe('one');
    expect(table.size).toBe(1);
  });

  it('refuses a capacity that is not a power of two, saying so', () => {
    expect(() => new IdTable(3)).toThrow(/power of two, got 3/);
    expect(() => new IdTable(0)).toThrow(/power of two/);
  });
});
