/**
 * The one statistics home of the benchmarks. A comparison runs its two sides as interleaved pairs
 * (A,B then B,A, so neither always runs second), takes the ratio A/B of every pair and reports the
 * median of those ratios with their spread (p25–p75) — never a ratio of medians. Batches of pairs are
 * repeated until two consecutive batches agree within a tolerance (±5 % by default), or a bound on
 * the number of batches is reached, in which case the result says it is unstable.
 *
 * Everything but {@link comparePaired} (which runs the measurements it is given) is pure.
 */

/** Summary statistics of a sample of durations, in milliseconds. */
export interface Summary {
  readonly n: number;
  readonly median: number;
  readonly p90: number;
  readonly mean: number;
}

/** The `q` quantile (0–1) of an ascending sample, linearly interpolated; NaN when empty. */
export function quantile(sorted: ReadonlyArray<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
}

const ascending = (sample: ReadonlyArray<number>): number[] => [...sample].sort((a, b) => a - b);

/** Median, 90th percentile and mean of a sample. */
export function summarize(sample: ReadonlyArray<number>): Summary {
  const sorted = ascending(sample);
  return { n: sorted.length, median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length) };
}

/** One measured pair: the time of side A and of side B, taken back to back. */
export interface Pair {
  readonly a: number;
  readonly b: number;
}

/** The median and the interquartile spread of a sample of ratios. */
export interface RatioSummary {
  readonly n: number;
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
}

/** Median and p25–p75 of the per-pair ratios `a / b` (pairs with a zero `b` are left out). */
export function pairRatios(pairs: ReadonlyArray<Pair>): RatioSummary {
  const sorted = ascending(pairs.filter((pair) => pair.b > 0).map((pair) => pair.a / pair.b));
  return { n: sorted.length, median: quantile(sorted, 0.5), p25: quantile(sorted, 0.25), p75: quantile(sorted, 0.75) };
}

/** Whether two batch medians agree within `tolerance` (relative to the later one). */
export function agree(previous: number, current: number, tolerance: number): boolean {
  return Number.isFinite(previous) && Number.isFinite(current) && current > 0 && Math.abs(previous / current - 1) <= tolerance;
}

/** A finished comparison. */
export interface Comparison {
  /** Ratios of the last two batches together (or of every batch, when unstable). */
  readonly ratios: RatioSummary;
  /** The median ratio of every batch, in order. */
  readonly batchMedians: ReadonlyArray<number>;
  /** Whether two consecutive batches agreed within the tolerance. */
  readonly stable: boolean;
  /** Medians of the raw times of side A and side B over the pairs in {@link ratios}. */
  readonly a: Summary;
  readonly b: Summary;
}

/** How long a comparison runs. */
export interface Plan {
  /** Pairs per batch. */
  readonly pairs: number;
  /** Pairs run first and thrown away. */
  readonly warmup: number;
  /** At least two; after this many batches without agreement the result is unstable. */
  readonly maxBatches: number;
  /** Relative agreement of two consecutive batch medians (default 0.05). */
  readonly tolerance?: number;
}

/**
 * Decides, from the batches measured so far, whether to stop and what to report. Pure: the loop of
 * {@link comparePaired} in one step.
 */
export function settle(batches: ReadonlyArray<ReadonlyArray<Pair>>, plan: Plan): Comparison | null {
  const tolerance = plan.tolerance ?? 0.05;
  const medians = batches.map((batch) => pairRatios(batch).median);
  const last = medians.length - 1;
  const stable = last >= 1 && agree(medians[last - 1] ?? Number.NaN, medians[last] ?? Number.NaN, tolerance);
  if (!stable && batches.length < Math.max(2, plan.maxBatches)) return null;
  const used = (stable ? batches.slice(-2) : batches).flat();
  return { ratios: pairRatios(used), batchMedians: medians, stable, a: summarize(used.map((p) => p.a)), b: summarize(used.map((p) => p.b)) };
}

/** A timed operation: resolves with its duration in milliseconds. */
export type Timed = () => Promise<number> | number;

/**
 * Runs `a` and `b` as interleaved pairs, batch after batch, until {@link settle} stops. The order
 * inside a pair alternates from one pair to the next.
 */
export async function comparePaired(a: Timed, b: Timed, plan: Plan): Promise<Comparison> {
  for (let i = 0; i < plan.warmup; i++) {
    await a();
    await b();
  }
  const batches: Pair[][] = [];
  let pairIndex = 0;
  for (;;) {
    const batch: Pair[] = [];
    for (let i = 0; i < plan.pairs; i++, pairIndex++) {
      if (pairIndex % 2 === 0) {
        const ta = await a();
        const tb = await b();
        batch.push({ a: ta, b: tb });
      } else {
        const tb = await b();
        const ta = await a();
        batch.push({ a: ta, b: tb });
      }
    }
    batches.push(batch);
    const done = settle(batches, plan);
    if (done !== null) return done;
  }
}

/** Which way a goal points. */
export type Goal = { readonly atMost: number } | { readonly atLeast: number };

/** Whether `value` meets `goal`. */
export function meets(value: number, goal: Goal): boolean {
  return 'atMost' in goal ? value <= goal.atMost : value >= goal.atLeast;
}

const goalText = (goal: Goal, digits: number): string => ('atMost' in goal ? `≤ ${goal.atMost.toFixed(digits)}×` : `≥ ${goal.atLeast.toFixed(digits)}×`);

/**
 * The verdict line of a comparison: the median of the per-pair ratios, their p25–p75, the batches,
 * the goal and "met"/"NOT met" (and "unstable" when no two consecutive batches agreed). With a
 * `null` goal the line is for reading only (an input of a derived value).
 */
export function verdictLine(label: string, result: Comparison, goal: Goal | null, digits = 3): string {
  const { median, p25, p75, n } = result.ratios;
  const batches = result.batchMedians.map((m) => m.toFixed(digits)).join(', ');
  return `  ${label}: ${median.toFixed(digits)}× (p25–p75 ${p25.toFixed(digits)}–${p75.toFixed(digits)}, ${n} pairs; batches ${batches}${result.stable ? '' : '; unstable'})${goal === null ? '' : ` goal ${goalText(goal, 2)} ${meets(median, goal) ? 'met' : 'NOT met'}`}`;
}

/** A verdict line for a derived value (no pairs of its own), e.g. a ratio of two scalings. */
export function derivedLine(label: string, value: number, goal: Goal, note: string): string {
  return `  ${label}: ${value.toFixed(3)}× (${note}) goal ${goalText(goal, 2)} ${meets(value, goal) ? 'met' : 'NOT met'}`;
}

/** One line with the raw medians of both sides (for reading, not for judging). */
export function sidesLine(aLabel: string, bLabel: string, result: Comparison): string {
  return `    ${aLabel} median ${result.a.median.toFixed(2)} ms · ${bLabel} median ${result.b.median.toFixed(2)} ms`;
}
