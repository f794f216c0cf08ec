// The ASCII reading of a JSON document's bytes (src/openapi/json-text.ts) parses to what the UTF-8 text parses to.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiJsonText, nextNonAscii, startsWithBrace, unreadValues } from '../../src/openapi/json-text.js';
import { addOpenApiTools, loadOpenApiDocument } from '../../src/openapi.js';
import { loadDocumentForTools } from '../../src/openapi/load.js';
import { McpServer } from '../../src/index.js';

const utf8 = new TextEncoder();
const parsedUtf8 = (bytes: Uint8Array): unknown => JSON.parse(Buffer.from(bytes).toString('utf8'));
const isAsciiText = (text: string): boolean => [...text].every((c) => c.charCodeAt(0) < 0x80);

describe('unreadValues', () => {
  const key = fc.constantFrom('webhooks', 'x-webhooks', 'components', 'paths', 'info', 'examples', 'x-other');
  const doc = fc.dictionary(key, fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.constantFrom('examples', 'schemas', 'webhooks'), fc.jsonValue({ maxDepth: 3 }))));

  it('reads a document as if webhooks, x-webhooks and components.examples were null, and nothing else differs (property)', () => {
    fc.assert(
      fc.property(doc, fc.constantFrom(0, 2, '\t'), fc.string({ unit: 'binary', maxLength: 20 }), (root, space, noise) => {
        const value = { ...root, 'x-noise': `"}{][,:${noise}\\"` };
        const bytes = utf8.encode(JSON.stringify(value, null, space));
        const ranges = unreadValues(bytes);
        expect(ranges).toBeDefined();
        // What the text says (JSON has no -0): the document as parsed, then the three values nulled.
        const expected = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
        for (const name of ['webhooks', 'x-webhooks']) if (name in expected) expected[name] = null;
        const components = expected['components'];
        if (typeof components === 'object' && components !== null && !Array.isArray(components) && 'examples' in components) (components as Record<string, unknown>)['examples'] = null;
        expect(JSON.parse(asciiJsonText(bytes, ranges)!)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('gives up (undefined) on a document repeating the unread keys more than 8 times, so loading stays linear', () => {
    // 50,000 repeats before one non-ASCII byte past 1 MB: a search per range from each one's end was 50 GB of scanning.
    const bytes = utf8.encode(`{${'"webhooks":0,'.repeat(50_000)}"pad":"${'a'.repeat(1_000_000)}","x":"é"}`);
    expect(unreadValues(bytes)).toBeUndefined();
    const eight = utf8.encode(`{${'"webhooks":0,'.repeat(8)}"x":"é"}`);
    expect(unreadValues(eight)).toHaveLength(8);
    expect(JSON.parse(asciiJsonText(eight, unreadValues(eight))!)).toEqual({ webhooks: null, x: 'é' });
  });

  it('skips an unread value by its brackets only: a syntax error inside one is not reported when deriving tools', () => {
    // Documented (docs/openapi.md): loadOpenApiDocument, which parses everything, reports it.
    const bytes = utf8.encode('{"webhooks": {"a": 1,}, "x": 0}');
    expect(() => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown).toThrow(SyntaxError);
    expect(JSON.parse(asciiJsonText(bytes, unreadValues(bytes))!)).toEqual({ webhooks: null, x: 0 });
  });

  it('gives up (undefined) on text that is not one balanced JSON value', () => {
    expect(unreadValues(utf8.encode('{"webhooks": {"a": 1}'))).toBeUndefined();
    expect(unreadValues(utf8.encode('{"a": "unterminated}'))).toBeUndefined();
    expect(unreadValues(utf8.encode('{"a": 1}}'))).toBeUndefined();
  });
});

describe('nextNonAscii', () => {
  it('finds the first byte ≥ 0x80 from any start, at any alignment of the view (a word at a time)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(7), fc.nat(320), fc.array(fc.nat(299), { maxLength: 4 }), (raw, shift, from, high) => {
        // Mostly ASCII, a few bytes ≥ 0x80 placed at random, in a view shifted off the buffer's alignment.
        const bytes = raw.map((b) => b & 0x7f);
        for (const at of high) if (at < bytes.length) bytes[at] = 0x80 | (raw[at]! & 0x7f);
        const backing = new Uint8Array(bytes.length + shift);
        backing.set(bytes, shift);
        const view = backing.subarray(shift);
        let expected = -1;
        for (let i = from; i < view.length; i++) if (view[i]! >= 0x80) { expected = i; break; }
        expect(nextNonAscii(view, from)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('asciiJsonText', () => {
  it('gives ASCII text parsing to the same value for any JSON with non-ASCII strings (astral, U+2028, U+FFFD)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, extra) => {
        const bytes = utf8.encode(JSON.stringify({ value, extra, [extra]: 'é😀\u2028' }));
        const text = asciiJsonText(bytes);
        expect(text).toBeDefined();
        expect(isAsciiText(text!)).toBe(true);
        expect(JSON.parse(text!)).toEqual(parsedUtf8(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('replaces invalid UTF-8 inside strings as the UTF-8 decoder does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (raw) => {
        // Bytes ≥ 0x80 only inside a string: control characters, quotes and backslashes left out.
        const inside = raw.filter((b) => b >= 0x80 || (b >= 0x20 && b !== 0x22 && b !== 0x5c));
        const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, ...inside, 0x22, 0x7d]);
        expect(JSON.parse(asciiJsonText(bytes)!)).toEqual(parsedUtf8(bytes));
      }),
    );
  });

  it('refuses (undefined) a non-ASCII character right after a lone backslash, which is no valid escape', () => {
    expect(asciiJsonText(utf8.encode('{"a":"\\é"}'))).toBeUndefined();
    expect(() => parsedUtf8(utf8.encode('{"a":"\\é"}'))).toThrow();
    // An escaped backslash before it is fine.
    expect(JSON.parse(asciiJsonText(utf8.encode('{"a":"\\\\é"}'))!)).toEqual({ a: '\\é' });
  });

  it('returns pure ASCII as it is', () => {
    const text = '{"openapi":"3.1.0","x":[1,2,{"y":null}]}';
    expect(asciiJsonText(utf8.encode(text))).toBe(text);
  });

  it('startsWithBrace looks past JSON whitespace only', () => {
    expect(startsWithBrace(utf8.encode(' \n\t\r{}'))).toBe(true);
    expect(startsWithBrace(utf8.encode('openapi: 3.1.0'))).toBe(false);
    expect(startsWithBrace(utf8.encode('\u00a0{}'))).toBe(false);
    expect(startsWithBrace(new Uint8Array(0))).toBe(false);
  });
});

describe('loading a file with non-ASCII text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-json-text-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the same document as the UTF-8 text, a leading BOM dropped', async () => {
    const doc = { openapi: '3.1.0', info: { title: 'Café ☕ 😀', version: '1' }, paths: {} };
    const file = join(dir, 'doc.json');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(doc), 'utf8')]));
    expect((await loadOpenApiDocument(file)).root).toEqual(doc);
  });

  it('loadOpenApiDocument keeps webhooks and components.examples; deriving tools parses them as null and derives the same', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Hooks «é»', version: '1' },
      paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } }, examples: { one: { $ref: '#/components/examples/one' } } } } } } } } },
      webhooks: { newPet: { post: { responses: { 200: { description: 'ok' } } } } },
      'x-webhooks': { oldPet: { post: { responses: { 200: { description: 'ok' } } } } },
      components: { examples: { one: { value: ['Rex'] } }, schemas: { Pet: { type: 'string' } } },
    };
    const file = join(dir, 'hooks.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    expect((await loadOpenApiDocument(file)).root).toEqual(doc);
    const { root } = await loadDocumentForTools(file);
    expect(root).toEqual({ ...doc, webhooks: null, 'x-webhooks': null, components: { examples: null, schemas: { Pet: { type: 'string' } } } });
    const fromFile = new McpServer({ name: 'a', version: '1' });
    await addOpenApiTools(fromFile, file, { baseUrl: 'https://pets.example' });
    const fromObject = new McpServer({ name: 'b', version: '1' });
    await addOpenApiTools(fromObject, doc, { baseUrl: 'https://pets.example' });
    expect(fromFile.tools.list().map((t) => t.name)).toEqual(fromObject.tools.list().map((t) => t.name));
    expect(fromFile.tools.list().map((t) => t.name)).toEqual(['listPets']);
  });

  it('still names the document when its JSON is invalid', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"openapi": "3.1.0", "info": "é", }');
    await expect(loadOpenApiDocument(file)).rejects.toThrow(/is not valid JSON/);
  });
});
