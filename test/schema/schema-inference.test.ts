/**
 * Type-level tests (checked by `tsc -p tsconfig.test.json`; vitest runs them
 * as no-ops): handler argument types inferred from the schema, and deep
 * schemas that must not hit TS2589.
 */
import { type } from 'arktype';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { compileSchema, withJsonSchema } from '../../src/schema/index.js';
import type { CompiledSchema, InferInput, InferOutput, ValidationResult } from '../../src/schema/index.js';
import * as v from 'valibot';

describe('InferOutput / InferInput', () => {
  it('zod: the output and input types', () => {
    const schema = z.object({ name: z.string(), count: z.number().default(1), when: z.string().transform((s) => s.length) });
    expectTypeOf<InferOutput<typeof schema>>().toEqualTypeOf<z.output<typeof schema>>();
    expectTypeOf<InferOutput<typeof schema>>().toEqualTypeOf<{ name: string; count: number; when: number }>();
    expectTypeOf<InferInput<typeof schema>>().toEqualTypeOf<z.input<typeof schema>>();
    expectTypeOf(compileSchema(schema)).toEqualTypeOf<CompiledSchema<z.output<typeof schema>>>();
  });

  it('arktype: the output and input types', () => {
    const _schema = type({ name: 'string', 'age?': 'number', n: 'string.numeric.parse' });
    type schema = typeof _schema;
    expectTypeOf<InferOutput<schema>>().toEqualTypeOf<schema['infer']>();
    expectTypeOf<InferOutput<schema>>().toEqualTypeOf<{ name: string; age?: number; n: number }>();
    expectTypeOf<InferInput<schema>>().toEqualTypeOf<schema['inferIn']>();
  });

  it('valibot (with an attached JSON Schema)', () => {
    const base = v.object({ tags: v.array(v.string()), n: v.optional(v.number()) });
    const _schema = withJsonSchema(base, { type: 'object' });
    expectTypeOf<InferOutput<typeof _schema>>().toEqualTypeOf<v.InferOutput<typeof base>>();
    expectTypeOf<InferOutput<typeof _schema>>().toEqualTypeOf<{ tags: string[]; n?: number | undefined }>();
    expectTypeOf<InferOutput<typeof base>>().toEqualTypeOf<v.InferOutput<typeof base>>();
  });

  it('raw JSON Schema: Record<string, unknown>', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } } as const;
    expectTypeOf<InferOutput<typeof schema>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<InferInput<typeof schema>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf(compileSchema(schema)).toEqualTypeOf<CompiledSchema<Record<string, unknown>>>();
    expectTypeOf(compileSchema({ type: 'object' }).validate({})).toEqualTypeOf<
      ValidationResult<Record<string, unknown>> | Promise<ValidationResult<Record<string, unknown>>>
    >();
  });

  it('narrows on ok', () => {
    const result = compileSchema(z.object({ a: z.string() })).validate({});
    if (!(result instanceof Promise) && result.ok) expectTypeOf(result.value.a).toEqualTypeOf<string>();
  });
});

describe('deep schemas compile without TS2589', () => {
  it('10 levels of nested zod objects', () => {
    const deep = z.object({
      l1: z.object({
        l2: z.object({
          l3: z.object({
            l4: z.object({
              l5: z.object({
                l6: z.object({
                  l7: z.object({
                    l8: z.object({
                      l9: z.object({ l10: z.object({ leaf: z.string(), n: z.number().optional() }) }),
                    }),
                  }),
                }),
              }),
            }),
          }),
        }),
      }),
    });
    const compiled = compileSchema(deep);
    type Out = InferOutput<typeof deep>;
    expectTypeOf<Out['l1']['l2']['l3']['l4']['l5']['l6']['l7']['l8']['l9']['l10']['leaf']>().toEqualTypeOf<string>();
    const result = compiled.validate({});
    if (!(result instanceof Promise) && result.ok) {
      expectTypeOf(result.value.l1.l2.l3.l4.l5.l6.l7.l8.l9.l10.n).toEqualTypeOf<number | undefined>();
    }
  });

  it('a 50-field zod object', () => {
    const wide = z.object({
      f01: z.string(), f02: z.number(), f03: z.boolean(), f04: z.string().optional(), f05: z.array(z.string()),
      f06: z.string(), f07: z.number(), f08: z.boolean(), f09: z.string().optional(), f10: z.array(z.string()),
      f11: z.string(), f12: z.number(), f13: z.boolean(), f14: z.string().optional(), f15: z.array(z.string()),
      f16: z.string(), f17: z.number(), f18: z.boolean(), f19: z.string().optional(), f20: z.array(z.string()),
      f21: z.string(), f22: z.number(), f23: z.boolean(), f24: z.string().optional(), f25: z.array(z.string()),
      f26: z.string(), f27: z.number(), f28: z.boolean(), f29: z.string().optional(), f30: z.array(z.string()),
      f31: z.string(), f32: z.number(), f33: z.boolean(), f34: z.string().optional(), f35: z.array(z.string()),
      f36: z.string(), f37: z.number(), f38: z.boolean(), f39: z.string().optional(), f40: z.array(z.string()),
      f41: z.string(), f42: z.number(), f43: z.boolean(), f44: z.string().optional(), f45: z.array(z.string()),
      f46: z.enum(['a', 'b']), f47: z.number(), f48: z.boolean(), f49: z.string().optional(), f50: z.object({ x: z.string() }),
    });
    const compiled = compileSchema(wide);
    expectTypeOf<InferOutput<typeof wide>>().toEqualTypeOf<z.output<typeof wide>>();
    expectTypeOf<InferOutput<typeof wide>['f46']>().toEqualTypeOf<'a' | 'b'>();
    expectTypeOf(compiled).toEqualTypeOf<CompiledSchema<z.output<typeof wide>>>();
  });
});
