import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema, SchemaConversionError } from './index.js';
import type { JsonSchemaObject, ValidationResult } from './index.js';

/** The `json_schema_2020_12_tool` input schema of the MCP conformance suite. */
function conformanceSchema() {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  } as const;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function sync<T>(result: ValidationResult<T> | Promise<ValidationResult<T>>): ValidationResult<T> {
  if (result instanceof Promise) throw new Error('expected a synchronous result');
  return result;
}

function messageOf(schema: JsonSchemaObject, value: unknown): string {
  const result = sync(compileSchema(schema).validate(value));
  if (result.ok) throw new Error(`expected ${JSON.stringify(value)} to be invalid`);
  return result.message;
}

describe('raw JSON Schema: advertised as given', () => {
  it('returns the very object the user gave, keyword for keyword', () => {
    const schema = conformanceSchema();
    const before = JSON.stringify(schema);
    const compiled = compileSchema(schema);
    expect(compiled.jsonSchema).toBe(schema);
    sync(compiled.validate({ email: 'a@b.c', address: { city: 'Paris' } }));
    sync(compiled.validate({ name: 1, extra: true }));
    expect(JSON.stringify(compiled.jsonSchema)).toBe(before);
    const wire = JSON.parse(JSON.stringify(compiled.jsonSchema)) as Record<string, unknown>;
    expect(wire['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(wire['$defs']).toEqual({ address: expect.objectContaining({ $anchor: 'addressDef' }) });
    expect(wire['allOf']).toEqual([{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }]);
    expect(Object.keys(wire)).toEqual(expect.arrayContaining(['if', 'then', 'else', 'additionalProperties']));
    expect(wire['additionalProperties']).toBe(false);
  });

  it('never annotates the user object (cfworker works on a private copy)', () => {
    const schema = conformanceSchema();
    sync(compileSchema(schema).validate({ email: 'x', address: { city: 'y' } }));
    expect(Object.getOwnPropertyNames(schema.properties.address)).toEqual(['$ref']);
    expect(Object.getOwnPropertyNames(schema)).not.toContain('__absolute_uri__');
  });

  it('accepts a deep-frozen schema', () => {
    const schema = deepFreeze(conformanceSchema());
    const compiled = compileSchema(schema);
    expect(sync(compiled.validate({ email: 'a@b.c' })).ok).toBe(true);
    expect(sync(compiled.validate({ name: 2 })).ok).toBe(false);
  });

  it('keeps unknown and x- keywords', () => {
    const schema = { type: 'object', 'x-internal': { owner: 'team' }, properties: { a: { type: 'string', 'x-ui': 'textarea' } } };
    expect(compileSchema(schema).jsonSchema).toBe(schema);
    expect(sync(compileSchema(schema).validate({ a: 'ok' })).ok).toBe(true);
  });

  it('caches per schema object', () => {
    const schema = conformanceSchema();
    expect(compileSchema(schema)).toBe(compileSchema(schema));
    expect(compileSchema(conformanceSchema())).not.toBe(compileSchema(schema));
  });
});

describe('raw JSON Schema: validation', () => {
  const compiled = compileSchema(conformanceSchema());

  it.each([
    [{ email: 'a@b.c' }],
    [{ contactMethod: 'phone', phone: '123' }],
    [{ name: 'Ada', contactMethod: 'phone', phone: '123', address: { street: '1 Main', city: 'Paris' } }],
    [{ contactMethod: 'email', email: 'a@b.c', phone: '1' }],
  ])('accepts %j', (value) => {
    const result = sync(compiled.validate(value));
    expect(result).toEqual({ ok: true, value });
    expect(result.ok && result.value).toBe(value);
  });

  it.each([
    [{}, 'neither phone nor email'],
    [{ contactMethod: 'phone', email: 'a@b.c' }, 'then: phone required'],
    [{ email: 'a@b.c', fax: '1' }, 'additionalProperties: false'],
    [{ email: 'a@b.c', address: { city: 7 } }, '$ref into $defs'],
    [{ email: 'a@b.c', contactMethod: 'pigeon' }, 'enum'],
    [[], 'not an object'],
    [null, 'null'],
  ])('rejects %j (%s)', (value: unknown, _why: string) => {
    expect(sync(compiled.validate(value)).ok).toBe(false);
  });

  it('lists every failing field with its path and what was expected', () => {
    const message = messageOf(conformanceSchema(), { name: 1, address: { city: 2 }, contactMethod: 'fax', extra: true });
    expect(message).toMatch(/^Invalid arguments: /);
    expect(message).toContain('"name" must be string (got number)');
    expect(message).toContain('"address.city" must be string (got number)');
    expect(message).toContain('"contactMethod" must be one of "phone", "email" (got "fax")');
    expect(message).toContain('"extra" is not an allowed property');
    expect(message).toContain('must have "phone" or "email"');
    expect(message).toContain('"email" is required');
    expect(message).not.toMatch(/subschema|Instance|False boolean/);
  });

  it('reports structured issues with real array indices', () => {
    const schema = { type: 'object', properties: { items: { type: 'array', items: { type: 'object', required: ['id'] } } } };
    const result = sync(compileSchema(schema).validate({ items: [{ id: 1 }, {}] }));
    expect(result).toMatchObject({ ok: false, issues: [{ path: ['items', 1, 'id'], message: 'is required' }] });
    expect(!result.ok && result.message).toBe('Invalid arguments: "items[1].id" is required');
  });

  it('describes common keywords', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0 },
        m: { type: 'number', exclusiveMaximum: 10 },
        s: { type: 'string', minLength: 3, pattern: '^[a-z]+$' },
        v: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        k: { oneOf: [{ const: 'a' }, { const: 'b' }] },
        tags: { type: 'array', maxItems: 2, uniqueItems: true },
        email: { type: 'string', format: 'email' },
        deep: { type: 'object', properties: { 'a/b~c d%': { type: 'boolean' } } },
      },
    };
    const message = messageOf(schema, {
      n: 1.5, m: 10, s: 'A', v: 3, k: 'c', tags: [1, 1, 2], email: 'nope', deep: { 'a/b~c d%': 'yes' },
    });
    expect(message).toContain('"n" must be integer (got 1.5)');
    expect(message).toContain('"m" must be < 10 (got 10)');
    expect(message).toContain('"s" must be at least 3 characters long (got 1)');
    expect(message).toContain('"s" must match the pattern /^[a-z]+$/ (got "A")');
    expect(message).toContain('"v" must be string or null (got number)');
    expect(message).toContain('"k" must be one of "a", "b" (got "c")');
    expect(message).toContain('"tags" must have at most 2 items (got 3)');
    expect(message).toContain('"tags" must not contain duplicate items');
    expect(message).toContain('"email" must be a valid email');
    expect(message).toContain(`"deep['a/b~c d%']" must be boolean (got string)`);
    expect(messageOf(schema, { n: -1 })).toBe('Invalid arguments: "n" must be >= 0 (got -1)');
  });

  it('summarises alternatives that fail in different ways', () => {
    const schema = {
      type: 'object',
      properties: {
        shape: {
          oneOf: [
            { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: ['kind', 'r'] },
            { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] },
          ],
        },
      },
    };
    const message = messageOf(schema, { shape: { kind: 'circle' } });
    expect(message).toContain('"shape" must match exactly one of: ("shape.r" is required) or (');
    expect(message).toContain('"shape.kind" must be "square" (got "circle")');
  });

  it('follows recursive $ref', () => {
    const tree = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
    };
    const compiled = compileSchema(tree);
    expect(sync(compiled.validate({ name: 'a', children: [{ name: 'b', children: [] }] })).ok).toBe(true);
    expect(messageOf(tree, { name: 'a', children: [{ name: 'b', children: [{}] }] })).toBe(
      'Invalid arguments: "children[0].children[0].name" is required',
    );
  });

  it('honours $schema: draft-07 ignores $ref siblings, 2020-12 does not', () => {
    const body = { definitions: { s: { type: 'string' } }, properties: { a: { $ref: '#/definitions/s', maxLength: 2 } } };
    const draft7 = compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', ...body });
    const draft2020 = compileSchema({ ...body });
    expect(sync(draft7.validate({ a: 'long' })).ok).toBe(true);
    expect(sync(draft2020.validate({ a: 'long' })).ok).toBe(false);
  });

  it('honours $schema: draft-04 boolean exclusiveMinimum', () => {
    const schema = { $schema: 'http://json-schema.org/draft-04/schema#', properties: { n: { minimum: 0, exclusiveMinimum: true } } };
    expect(sync(compileSchema(schema).validate({ n: 1 })).ok).toBe(true);
    expect(messageOf(schema, { n: 0 })).toBe('Invalid arguments: "n" must be > 0 (got 0)');
  });

  it('turns non-JSON values into issues instead of throwing', () => {
    expect(messageOf({ type: 'object', properties: { a: {} } }, undefined)).toBe('Invalid arguments: must be a JSON value (got undefined)');
    expect(messageOf({ type: 'object', properties: { a: {} } }, { a: 1n })).toContain('must be a JSON value (got bigint)');
  });
});

describe('raw JSON Schema: fast path', () => {
  it('accepts any object for { type: "object" } without calling the validator', () => {
    const compiled = compileSchema({ type: 'object', properties: {}, description: 'no arguments', 'x-a': 1 });
    const args = {};
    const result = sync(compiled.validate(args));
    expect(result.ok && result.value).toBe(args);
    expect(sync(compiled.validate({ anything: [1] })).ok).toBe(true);
    expect(messageOf({ type: 'object' }, [])).toBe('Invalid arguments: must be object (got array)');
    expect(messageOf({ type: 'object' }, null)).toBe('Invalid arguments: must be object (got null)');
    expect(messageOf({ type: 'object' }, 'x')).toBe('Invalid arguments: must be object (got string)');
  });

  it('accepts anything for {}', () => {
    const compiled = compileSchema({});
    expect(sync(compiled.validate(3)).ok).toBe(true);
  });
});

describe('raw JSON Schema: registration-time errors', () => {
  it('rejects an unresolvable $ref', () => {
    expect(() => compileSchema({ properties: { a: { $ref: '#/$defs/missing' } } })).toThrow(SchemaConversionError);
    expect(() => compileSchema({ properties: { a: { $ref: '#/$defs/missing' } } })).toThrow(/unresolvable \$ref "#\/\$defs\/missing"/);
  });

  it('resolves $ref by $anchor', () => {
    const schema = { $defs: { a: { $anchor: 'addr', type: 'string' } }, properties: { x: { $ref: '#addr' } } };
    expect(sync(compileSchema(schema).validate({ x: 'ok' })).ok).toBe(true);
    expect(messageOf(schema, { x: 1 })).toBe('Invalid arguments: "x" must be string (got number)');
  });

  it('rejects an invalid pattern and a cyclic object', () => {
    expect(() => compileSchema({ properties: { a: { type: 'string', pattern: '(' } } })).toThrow(SchemaConversionError);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    expect(() => compileSchema(cyclic)).toThrow(/cycle/);
  });
});

describe('raw JSON Schema: properties', () => {
  const typical = compileSchema({
    type: 'object',
    properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['query'],
    additionalProperties: false,
  });
  const fixture = compileSchema(conformanceSchema());

  it('never throws on arbitrary JSON values, and reports a message when invalid', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        for (const compiled of [typical, fixture]) {
          const result = sync(compiled.validate(value));
          if (!result.ok) {
            expect(result.message).toMatch(/^Invalid arguments/);
            expect(result.issues.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary JavaScript values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withNullPrototype: true, withObjectString: true }), (value) => {
        sync(typical.validate(value));
        sync(fixture.validate(value));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts every object built from the schema', () => {
    const arb = fc.record(
      { query: fc.string({ minLength: 1 }), limit: fc.integer({ min: 1 }), tags: fc.array(fc.string()) },
      { requiredKeys: ['query'] },
    );
    fc.assert(fc.property(arb, (value) => sync(typical.validate(value)).ok));
  });
});
