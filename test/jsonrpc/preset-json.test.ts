/**
 * Preset JSON (src/jsonrpc/preset-json.ts): a value serialised once and spliced wherever it
 * appears gives exactly JSON.stringify's output, everywhere, for every shape around it; a string
 * that looks like the placeholder cannot inject text; the values stay plain objects.
 */
import { describe, expect, it } from 'vitest';
import { encodeJson, encodeJsonBody, presetJson } from '../../src/jsonrpc/preset-json.js';

const text = (body: string | Uint8Array): string => (typeof body === 'string' ? body : new TextDecoder().decode(body));
const MARK = '\u0000mcpkit:preset-json\u0000';

describe('preset JSON', () => {
  it('splices shared values into the same bytes JSON.stringify writes, non-ASCII text included', () => {
    const shared = presetJson({ type: 'object', description: 'Über «quoted» \u2028 "x" \ud83d\ude00', properties: { a: { enum: [1, null, 'é'] } } });
    const other = presetJson([1, 2, { three: 'drei' }]);
    const message = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a', s: shared, t: other }, { name: 'ö', s: shared, nested: { deeper: [shared, other] } }], last: 'ä' } };
    const plain = JSON.stringify(message);
    expect(encodeJson(message)).toBe(plain);
    const body = encodeJsonBody(message);
    expect(body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(body as Uint8Array).equals(Buffer.from(plain, 'utf8'))).toBe(true);
    // Again, from the cached text and bytes.
    expect(text(encodeJsonBody(message))).toBe(plain);
    expect(encodeJson([shared, shared])).toBe(JSON.stringify([shared, shared]));
  });

  it('is a plain string where nothing is preset, and a preset value alone is its own text', () => {
    expect(encodeJsonBody({ a: 1 })).toBe('{"a":1}');
    const alone = presetJson({ b: [true] });
    expect(text(encodeJsonBody(alone))).toBe('{"b":[true]}');
  });

  it('leaves a preset value a plain, frozen object to everything else', () => {
    const value = presetJson({ a: { b: [1] } });
    expect(Object.keys(value)).toEqual(['a']);
    expect({ ...value }).toEqual({ a: { b: [1] } });
    expect(JSON.stringify(value)).toBe('{"a":{"b":[1]}}');
    expect(structuredClone(value)).toEqual({ a: { b: [1] } });
    expect(Object.isFrozen(value.a.b)).toBe(true);
    expect(() => {
      (value.a.b).push(2);
    }).toThrow(TypeError);
  });

  it('cannot be spoofed: a string or key equal to the placeholder is written as itself', () => {
    const shared = presetJson({ secret: 'spliced' });
    for (const message of [{ a: shared, b: MARK }, { [MARK]: 1, a: shared }, { a: MARK }, [MARK, shared, `x${MARK}`]]) {
      expect(encodeJson(message)).toBe(JSON.stringify(message));
      expect(text(encodeJsonBody(message))).toBe(JSON.stringify(message));
    }
  });

  it('throws what JSON.stringify throws and stays usable after', () => {
    const shared = presetJson({ ok: true });
    const cyclic: Record<string, unknown> = { shared };
    cyclic['self'] = cyclic;
    expect(() => encodeJson(cyclic)).toThrow(TypeError);
    expect(() => encodeJsonBody({ shared, big: 1n })).toThrow(TypeError);
    expect(encodeJson({ shared })).toBe('{"shared":{"ok":true}}');
    // After a throw no splicing is left on: a plain JSON.stringify of the value is the value.
    expect(JSON.stringify({ shared })).toBe('{"shared":{"ok":true}}');
  });

  it('leaves alone what it cannot mark: frozen values and values with their own toJSON', () => {
    const frozen = presetJson(Object.freeze({ f: 1 }));
    const custom = presetJson({ toJSON: () => 'custom' });
    expect(encodeJson({ frozen, custom })).toBe('{"frozen":{"f":1},"custom":"custom"}');
  });
});
