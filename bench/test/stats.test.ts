import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { agree, comparePaired, meets, pairRatios, quantile, settle, verdictLine, type Pair } from '../src/stats.js';

describe('pairRatios', () => {
  it('is the median of the per-pair ratios, not the ratio of the medians', () => {
    const pairs: Pair[] = [
      { a: 2, b: 1 },
      { a: 10, b: 10 },
      { a: 30, b: 10 },
    ];
    // ratios 2, 1, 3 → median 2; medians 10 / 10 would say 1.
    expect(pairRatios(pairs)).toEqual({ n: 3, median: 2, p25: 1.5, p75: 2.5 });
  });

  it('keeps p25 ≤ median ≤ p75 within the ratios', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ a: fc.double({ min: 0.01, max: 1e3, noNaN: true }), b: fc.double({ min: 0.01, max: 1e3, noNaN: true }) }), { minLength: 1, maxLength: 50 }), (pairs) => {
        const r = pairRatios(pairs);
        const ratios = pairs.map((p) => p.a / p.b);
        expect(r.p25).toBeLessThanOrEqual(r.median);
        expect(r.median).toBeLessThanOrEqual(r.p75);
        expect(r.p25).toBeGreaterThanOrEqual(Math.min(...ratios));
        expect(r.p75).toBeLessThanOrEqual(Math.max(...ratios));
      }),
    );
  });
});

describe('quantile', () => {
  it('interpolates and is NaN on an empty sample', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(Number.isNaN(quantile([], 0.5))).toBe(true);
  });
});

describe('settle', () => {
  const batch = (ratio: number, n = 5): Pair[] => Array.from({ length: n }, () => ({ a: ratio, b: 1 }));
  const plan = { pairs: 5, warmup: 0, maxBatches: 4 };

  it('goes on after one batch', () => {
    expect(settle([batch(1)], plan)).toBeNull();
  });

  it('stops once two consecutive batches agree within 5 %, reporting those two', () => {
    const done = settle([batch(2), batch(1), batch(1.04)], plan);
    expect(done?.stable).toBe(true);
    expect(done?.ratios.n).toBe(10);
    expect(done?.batchMedians).toEqual([2, 1, 1.04]);
  });

  it('goes on while batches disagree, and reports unstable at the bound', () => {
    expect(settle([batch(1), batch(1.2)], plan)).toBeNull();
    const done = settle([batch(1), batch(1.2), batch(1), batch(1.2)], plan);
    expect(done?.stable).toBe(false);
    expect(done?.ratios.n).toBe(20);
  });

  it('agree holds within the tolerance band, either way', () => {
    expect(agree(1.04, 1, 0.05)).toBe(true);
    expect(agree(1, 1.04, 0.05)).toBe(true);
    expect(agree(1.06, 1, 0.05)).toBe(false);
    expect(agree(Number.NaN, 1, 0.05)).toBe(false);
  });
});

describe('comparePaired', () => {
  it('interleaves A and B, alternating which goes first', async () => {
    const order: string[] = [];
    const result = await comparePaired(
      () => (order.push('a'), 2),
      () => (order.push('b'), 1),
      { pairs: 2, warmup: 1, maxBatches: 3 },
    );
    expect(order).toEqual(['a', 'b', 'a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
    expect(result.stable).toBe(true);
    expect(result.ratios.median).toBe(2);
  });
});

describe('verdicts', () => {
  it('says met or NOT met by the goal', () => {
    expect(meets(1, { atMost: 1.1 })).toBe(true);
    expect(meets(0.8, { atLeast: 0.9 })).toBe(false);
    const line = verdictLine('x', { ratios: { n: 2, median: 1.2, p25: 1.1, p75: 1.3 }, batchMedians: [1.2, 1.2], stable: true, a: { n: 2, median: 1, p90: 1, mean: 1 }, b: { n: 2, median: 1, p90: 1, mean: 1 } }, { atMost: 1.1 });
    expect(line).toContain('NOT met');
    expect(line).not.toContain('unstable');
  });
});
