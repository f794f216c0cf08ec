/**
 * A body read whole by the Node engines (node:http, the HTTP/1.1 client) is kept as pieces joined every
 * 1024: the text must be the body's, however it was cut (across the join, inside a UTF-8 character).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { BodyPieces } from '../../src/client/http-request.js';

/** `bytes` cut at the given offsets. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const at = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) out.push(bytes.subarray(from, to));
    from = to;
  }
  return out;
}

it('the text is the body, however it was cut', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.array(fc.nat(), { maxLength: 300 }), (text, offsets) => {
      const body = new BodyPieces();
      for (const piece of cut(Buffer.from(text, 'utf8'), offsets)) body.add(piece);
      expect(body.text()).toBe(Buffer.from(text, 'utf8').toString('utf8'));
    }),
  );
});

it('one-byte pieces across several joins, a character split at each join', () => {
  const text = 'a€'.repeat(BodyPieces.JOIN + 5); // four bytes a unit, the euro sign three: joins fall inside it
  const body = new BodyPieces();
  for (const byte of Buffer.from(text, 'utf8')) body.add(Buffer.of(byte));
  expect(body.text()).toBe(text);
});

it('an empty body and a single piece', () => {
  expect(new BodyPieces().text()).toBe('');
  const one = new BodyPieces();
  one.add(Buffer.from('{"jsonrpc":"2.0"}'));
  expect(one.text()).toBe('{"jsonrpc":"2.0"}');
});
