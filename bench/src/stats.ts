/** Summary statistics of a sample of durations, in milliseconds. Pure. */
export interface Summary {
  readonly n: number;
  readonly median: number;
  readonly p90: number;
  readonly mean: number;
}

const quantile = (sorted: ReadonlyArray<number>, q: number): number => {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
};

/** Median, 90th percentile and mean of a sample. */
export function summarize(sample: ReadonlyArray<number>): Summary {
  const sorted = [...sample].sort((a, b) => a - b);
  return { n: sorted.length, median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length) };
}
