import { type } from 'arktype';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSchema, isStandardSchema, SchemaConversionError, withJsonSchema } from './index.js';
import type { StandardSchemaV1, ValidationResult } from './index.js';

function sync<T>(result: ValidationResult<T> | Promise<ValidationResult<T>>): ValidationResult<T> {
  if (result instanceof Promise) throw new Error('expected a synchronous result');
  return result;
}

describe('isStandardSchema', () => {
  it('recognises zod, valibot and arktype (a function)', () => {
    expect(isStandardSchema(z.object({}))).toBe(true);
    expect(isStandardSchema(v.object({}))).toBe(true);
    const ark = type({ a: 'string' });
    expect(typeof ark).toBe('function');
    expect(isStandardSchema(ark)).toBe(true);
  });

  it('rejects JSON Schema objects and look-alikes', () => {
    expect(isStandardSchema({ type: 'object' })).toBe(false);
    expect(isStandardSchema({ '~standard': { version: 2, validate: () => ({ value: 1 }) } })).toBe(false);
    expect(isStandardSchema({ '~standard': { version: 1 } })).toBe(false);
    expect(isStandardSchema(null)).toBe(false);
    expect(isStandardSchema('zod')).toBe(false);
  });
});

describe('zod 4', () => {
  const schema = z.object({
    name: z.string(),
    address: z.object({ city: z.string(), zip: z.string().optional() }),
    count: z.number().int().default(1),
  });

  it('advertises its Standard JSON Schema (input side)', () => {
    const compiled = compileSchema(schema);
    expect(compiled.jsonSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { name: { type: 'string' }, address: { type: 'object' }, count: { type: 'integer', default: 1 } },
      required: ['name', 'address'],
    });
    expect(compileSchema(schema, { io: 'output' }).jsonSchema).toMatchObject({ required: ['name', 'address', 'count'] });
  });

  it('validates with zod and returns the parsed value', () => {
    const result = sync(compileSchema(schema).validate({ name: 'Ada', address: { city: 'Paris' } }));
    expect(result).toEqual({ ok: true, value: { name: 'Ada', address: { city: 'Paris' }, count: 1 } });
  });

  it('reports zod issues with their paths', () => {
    const result = sync(compileSchema(schema).validate({ name: 1, address: { city: 2 } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      { path: ['name'], message: 'Invalid input: expected string, received number' },
      { path: ['address', 'city'], message: 'Invalid input: expected string, received number' },
    ]);
    expect(result.message).toBe(
      'Invalid arguments: "name": Invalid input: expected string, received number; "address.city": Invalid input: expected string, received number',
    );
  });

  it('supports async refinements', async () => {
    const asyncSchema = z.object({ id: z.string().refine(async (id) => id.startsWith('u'), 'must start with u') });
    const pending = compileSchema(asyncSchema).validate({ id: 'x' });
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).resolves.toMatchObject({ ok: false, message: 'Invalid arguments: "id" must start with u' });
    await expect(compileSchema(asyncSchema).validate({ id: 'u1' })).resolves.toEqual({ ok: true, value: { id: 'u1' } });
  });

  it('fails at registration when zod cannot express the schema', () => {
    const withDate = z.object({ when: z.date() });
    expect(() => compileSchema(withDate)).toThrow(SchemaConversionError);
    expect(() => compileSchema(withDate)).toThrow(/Date cannot be represented.*withJsonSchema/s);
    expect(() => compileSchema(z.object({ n: z.string().transform(Number) }), { io: 'output' })).toThrow(SchemaConversionError);
  });

  it('caches per schema object and side', () => {
    expect(compileSchema(schema)).toBe(compileSchema(schema));
    expect(compileSchema(schema, { io: 'output' })).toBe(compileSchema(schema, { io: 'output' }));
    expect(compileSchema(schema, { io: 'output' })).not.toBe(compileSchema(schema));
  });
});

describe('arktype', () => {
  const schema = type({ name: 'string', 'age?': 'number.integer >= 0', address: { city: 'string' } });

  it('advertises its Standard JSON Schema', () => {
    expect(compileSchema(schema).jsonSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 }, address: { type: 'object' } },
      required: ['address', 'name'],
    });
  });

  it('validates and drops the path arktype repeats in its messages', () => {
    const compiled = compileSchema(schema);
    expect(sync(compiled.validate({ name: 'Ada', address: { city: 'Paris' } })).ok).toBe(true);
    const result = sync(compiled.validate({ name: 'Ada', age: -1, address: { city: 2 } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toContainEqual({ path: ['address', 'city'], message: 'must be a string (was a number)' });
    expect(result.message).toContain('"address.city" must be a string (was a number)');
    expect(result.message).toContain('"age" must be non-negative (was -1)');
  });
});

describe('valibot 1.5 (no built-in JSON Schema)', () => {
  const schema = v.object({ name: v.string(), tags: v.array(v.string()) });

  it('refuses at registration, explaining how to fix it', () => {
    expect(() => compileSchema(schema)).toThrow(SchemaConversionError);
    expect(() => compileSchema(schema)).toThrow(/valibot.*toStandardJsonSchema.*withJsonSchema/s);
  });

  it('validates through valibot when a JSON Schema is attached', () => {
    const json = { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['name', 'tags'] };
    const compiled = compileSchema(withJsonSchema(schema, json));
    expect(compiled.jsonSchema).toBe(json);
    expect(sync(compiled.validate({ name: 'a', tags: ['x'] }))).toEqual({ ok: true, value: { name: 'a', tags: ['x'] } });
    const result = sync(compiled.validate({ name: 'a', tags: ['x', 2] }));
    expect(result).toMatchObject({ ok: false, issues: [{ path: ['tags', 1], message: 'Invalid type: Expected string but received 2' }] });
    expect(!result.ok && result.message).toBe('Invalid arguments: "tags[1]": Invalid type: Expected string but received 2');
  });
});

describe('other Standard Schemas', () => {
  it('uses an instance toJSONSchema() for zod versions before Standard JSON Schema', () => {
    const legacy = {
      '~standard': { version: 1, vendor: 'zod', validate: (value: unknown) => ({ value }) },
      toJSONSchema: (params: { target: string; io: string }) => ({ type: 'object', 'x-params': params }),
    } satisfies StandardSchemaV1 & Record<string, unknown>;
    expect(compileSchema(legacy).jsonSchema).toEqual({ type: 'object', 'x-params': { target: 'draft-2020-12', io: 'input' } });
  });

  it('accepts symbol keys and {key} path segments', () => {
    const custom: StandardSchemaV1<unknown, { a: string }> = {
      '~standard': {
        version: 1,
        vendor: 'custom',
        validate: () => ({ issues: [{ message: 'Bad', path: [{ key: 'a' }, 0, Symbol('s')] }, { message: 'Whole thing is wrong' }] }),
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    };
    const result = sync(compileSchema(custom).validate({}));
    expect(result).toMatchObject({ ok: false, issues: [{ path: ['a', 0, 's'], message: 'Bad' }, { path: [], message: 'Whole thing is wrong' }] });
    expect(!result.ok && result.message).toBe('Invalid arguments: "a[0].s": Bad; Whole thing is wrong');
  });

  it('rejects a converter that returns something other than an object', () => {
    const odd: StandardSchemaV1 = {
      '~standard': { version: 1, vendor: 'odd', validate: (value) => ({ value }), jsonSchema: { input: () => null as never, output: () => ({}) } },
    };
    expect(() => compileSchema(odd)).toThrow(/returned null/);
  });

  it('rejects values that are neither schema kind', () => {
    expect(() => compileSchema([] as never)).toThrow(SchemaConversionError);
  });
});

describe('Standard Schema: properties', () => {
  it('zod validation of arbitrary JSON never throws', () => {
    const compiled = compileSchema(z.object({ a: z.string(), b: z.array(z.number()).optional() }));
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = sync(compiled.validate(value));
        if (!result.ok) expect(result.message).toMatch(/^Invalid arguments: /);
      }),
      { numRuns: 300 },
    );
  });
});
