/** Stream ids of a shared session name their writer and request (stream-origin.ts): they read back as written. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEventId } from '../../../src/stores/follow.js';
import { originStreamId, streamOrigin } from '../../../src/transports/http/stream-origin.js';

const instance = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const incarnation = fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/);

describe('stream origin', () => {
  it('reads back the instance, its run and the request id, also inside an event id', () => {
    const requestId = fc.oneof(fc.integer(), fc.string({ maxLength: 40 }));
    fc.assert(
      fc.property(instance, incarnation, requestId, fc.nat(), (name, run, id, seq) => {
        const streamId = originStreamId('0a1b2c.7', name, run, id);
        expect(streamOrigin(streamId)).toEqual({ instance: name, incarnation: run, requestId: id });
        expect(parseEventId(`${streamId}:${seq}`)).toEqual({ streamId, seq });
      }),
    );
  });

  it('leaves out a request id too long to travel in every event id, and no id at all', () => {
    expect(streamOrigin(originStreamId('s.0', 'a', 'r1', 'x'.repeat(200)))).toEqual({ instance: 'a', incarnation: 'r1' });
    expect(streamOrigin(originStreamId('s.0', 'a', 'r1', undefined))).toEqual({ instance: 'a', incarnation: 'r1' });
    expect(streamOrigin('0a1b2c.7')).toBeUndefined();
  });
});
