import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastAcceptor } from './fast-path.js';

const primitiveType = fc.constantFrom('string', 'number', 'integer', 'boolean');

const flatSchema = fc
  .record({
    properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'text', 'n'), fc.record({ type: primitiveType, description: fc.string() }, { requiredKeys: ['type'] })),
    required: fc.subarray(['a', 'b', 'c', 'text', 'n']),
    additionalProperties: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map(({ properties, required, additionalProperties }) => ({
    type: 'object',
    properties,
    required,
    ...(additionalProperties === undefined ? {} : { additionalProperties }),
  }));

const value = fc.oneof(
  fc.dictionary(fc.constantFrom('a', 'b', 'c', 'text', 'n', 'extra'), fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))),
  fc.jsonValue(),
);

describe('fast path for flat object schemas', () => {
  it('never accepts what the full validator rejects, and agrees on what it accepts', () => {
    fc.assert(
      fc.property(flatSchema, value, (schema, candidate) => {
        const accept = fastAcceptor(schema);
        expect(accept).toBeDefined();
        const full = new Validator(structuredClone(schema) as never, '2020-12', false).validate(candidate).valid;
        if (accept!(candidate)) expect(full).toBe(true);
        else expect(full).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    { type: 'object', properties: { a: { type: 'string', format: 'email' } } },
    { type: 'object', properties: { a: { type: 'string', minLength: 1 } } },
    { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } },
    { type: 'object', allOf: [] },
    { type: 'object', additionalProperties: { type: 'string' } },
    { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
    { type: ['object', 'null'] },
  ])('leaves anything else to the full validator: %j', (schema) => {
    expect(fastAcceptor(schema)).toBeUndefined();
  });
});
