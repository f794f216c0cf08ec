/** Tool and argument names: valid, unique and deterministic for any operationIds (fast-check), and the query encoding round-trips. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentName, assignNames } from '../../src/openapi/names.js';
import type { OpenApiParameter } from '../../src/openapi/operations.js';
import { queryPairs } from '../../src/openapi/serialize.js';

describe('derived names', () => {
  it('are valid, unique, deterministic, and keep every valid unique operationId unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/), fc.constantFrom('a', 'a_2', 'a/b', 'a_b', '')), { maxLength: 40 }), (wanted) => {
        const names = assignNames(wanted);
        expect(names).toHaveLength(wanted.length);
        expect(new Set(names).size).toBe(names.length);
        for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
        expect(assignNames(wanted)).toEqual(names);
        wanted.forEach((w, i) => {
          if (/^[A-Za-z0-9_.-]{1,128}$/.test(w) && wanted.indexOf(w) === i) expect(names[i]).toBe(w);
        });
      }),
    );
  });

  it('argument names are client-safe', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 300 }), (name) => /^[A-Za-z0-9_.-]{1,64}$/.test(argumentName(name))));
    expect(argumentName('X-Request-Id')).toBe('X-Request-Id');
  });

  it('query values round-trip through URLSearchParams for any string', () => {
    const p: OpenApiParameter = { name: 'q', in: 'query', required: false, schema: {}, at: '#' };
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (values) => {
        const parsed = new URLSearchParams(queryPairs(p, values).join('&'));
        expect(parsed.getAll('q')).toEqual(values.map((v) => v.replace(/[\uD800-\uDFFF]/g, '\uFFFD')));
      }),
    );
  });
});
