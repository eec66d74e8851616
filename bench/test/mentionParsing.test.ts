import { describe, expect, it } from 'vitest';
import { relativeScaling } from '../src/mentionParsing.js';
import type { Comparison } from '../src/stats.js';

const against = (median: number): Comparison => ({
  ratios: { n: 1, median, p25: median, p75: median },
  batchMedians: [median],
  stable: true,
  a: { n: 1, median: 1, p90: 1, mean: 1 },
  b: { n: 1, median: 1, p90: 1, mean: 1 },
});

describe('relativeScaling', () => {
  it('is the parser’s 1 MB → 10 MB scaling over the one-regex parser’s, both against the same scan', () => {
    // parse: 15× the scan on 10 MB, 10× on 1 MB (1.5); regex: 12× and 10× (1.2) → 1.25.
    expect(relativeScaling(against(15), against(10), against(12), against(10))).toBeCloseTo(1.25, 12);
  });

  it('is 1 when both parsers scale alike, whatever the scan did', () => {
    expect(relativeScaling(against(30), against(20), against(6), against(4))).toBeCloseTo(1, 12);
  });
});
