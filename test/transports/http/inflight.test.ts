/** The per-client in-flight byte quota: owners at zero are kept for reuse and swept when many pile up. */
import { describe, expect, it } from 'vitest';
import { InflightBytes } from '../../../src/transports/http/inflight.js';

describe('InflightBytes', () => {
  it('charges and releases per owner, and refuses past the limit only when something is held', () => {
    const quota = new InflightBytes(1_000);
    const first = quota.charge('a', 600, 1);
    expect(typeof first).toBe('function');
    const refused = quota.charge('a', 600, 2);
    expect(typeof refused).toBe('object');
    expect((refused as { status: number }).status).toBe(429);
    (first as () => void)();
    (first as () => void)(); // a second release changes nothing
    expect(quota.heldBy('a')).toBe(0);
    // Back at zero: one request larger than the limit is still admitted.
    const big = quota.charge('a', 5_000, 3);
    expect(typeof big).toBe('function');
    expect(quota.heldBy('a')).toBe(5_000);
    (big as () => void)();
    expect(quota.heldBy('a')).toBe(0);
  });

  it('keeps an owner that holds bytes when idle owners are swept', () => {
    const quota = new InflightBytes(1_000);
    const held = quota.charge('busy', 300, 1) as () => void;
    for (let i = 0; i < 3_000; i++) (quota.charge(`addr:${i}`, 10, i) as () => void)();
    expect(quota.heldBy('busy')).toBe(300);
    expect(quota.heldBy('addr:5')).toBe(0);
    expect(typeof quota.charge('busy', 800, 2)).toBe('object'); // 300 + 800 > 1,000
    held();
    expect(quota.heldBy('busy')).toBe(0);
  });

  it('splits into a check that holds nothing (refusal) and a charge without a check (hold), as a POST uses them', () => {
    const quota = new InflightBytes(1_000);
    expect(quota.refusal('a', 600, 1)).toBeUndefined();
    expect(quota.heldBy('a')).toBe(0); // a call answered in the tick it was admitted never holds its body
    const release = quota.hold('a', 600);
    expect(quota.heldBy('a')).toBe(600);
    expect(quota.refusal('a', 600, 2)).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
    release();
    expect(quota.refusal('a', 600, 2)).toBeUndefined();
  });
});
