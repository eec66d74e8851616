/**
 * The cost of parsing composer markdown for mentions, against the cheapest scan that could find
 * them: a plain `indexOf('[')` loop over the same text.
 *
 * Text: realistic prose (ASCII words with some accented and CJK words, punctuation, the odd
 * ordinary markdown link) with a skill, app or plugin mention about every 200 characters.
 * Reported: the ratio of the medians of `parse` and of the baseline on 1 MB (goal ≤ 3×), and the
 * ratio of the medians of `parse` on 10 MB and on 1 MB (goal ≤ 11×, i.e. linear time), next to the
 * same ratio for the scan, which shows how far from 10× the machine itself is (caches, memory).
 * Runs of both alternate, so they see the same machine load.
 */
import { performance } from 'node:perf_hooks';
import { app, parse, plugin, serialize, skill, text, type Segment } from '@wework/mention-serializer';
import { summarize, type Summary } from './stats.js';

const RUNS_1MB = Number(process.env['BENCH_MENTION_RUNS'] ?? 21);
const RUNS_10MB = Math.max(3, Math.round(RUNS_1MB / 4));
const WORDS = ['the', 'report', 'summarise', 'quarterly', 'numbers', 'and', 'draft', 'a', 'reply', 'to', 'café', 'naïve', '数据', 'please', 'with', 'charts', '(see', 'notes)', 'for', 'review.'];

/** Deterministic prose with a mention about every 200 characters, at least `size` UTF-16 units long. */
export function mentionText(size: number): string {
  const segments: Segment[] = [];
  let length = 0;
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  let n = 0;
  while (length < size) {
    let prose = ' ';
    while (prose.length < 160 + (next() % 60)) prose += `${WORDS[next() % WORDS.length]} `;
    if (n % 7 === 3) prose += '[docs](https://example.com/docs) ';
    const mention =
      n % 3 === 0
        ? skill(`skill-${n % 50}`, `/home/user/.codex/skills/skill-${n % 50}/SKILL.md`)
        : n % 3 === 1
          ? app('Google Drive', `connector_${n % 20}`)
          : plugin('Sites', `plugin-${n % 10}`, 'wegent');
    segments.push(text(prose), mention);
    length += prose.length + 40;
    n++;
  }
  return serialize(segments);
}

function baselineScan(markdown: string): number {
  let count = 0;
  for (let i = markdown.indexOf('['); i !== -1; i = markdown.indexOf('[', i + 1)) count++;
  return count;
}

function time(run: () => unknown): number {
  const start = performance.now();
  const sink = run();
  const elapsed = performance.now() - start;
  if (sink === undefined) throw new Error('unreachable: keeps the result alive');
  return elapsed;
}

const line = (label: string, s: Summary): string => `  ${label.padEnd(28)} median ${s.median.toFixed(2)} ms  p90 ${s.p90.toFixed(2)} ms  (n=${s.n})`;

/** Runs the benchmark and returns printable lines. */
export async function benchMentionParsing(): Promise<string[]> {
  const oneMb = mentionText(1_000_000);
  const tenMb = mentionText(10_000_000);
  const mentions = parse(oneMb).filter((s) => s._tag === 'Mention').length;
  for (let i = 0; i < 3; i++) {
    parse(oneMb);
    baselineScan(oneMb);
  }
  const parseTimes: number[] = [];
  const scanTimes: number[] = [];
  for (let i = 0; i < RUNS_1MB; i++) {
    parseTimes.push(time(() => parse(oneMb)));
    scanTimes.push(time(() => baselineScan(oneMb)));
    await Promise.resolve();
  }
  const parseTenTimes: number[] = [];
  const scanTenTimes: number[] = [];
  for (let i = 0; i < RUNS_10MB; i++) {
    parseTenTimes.push(time(() => parse(tenMb)));
    scanTenTimes.push(time(() => baselineScan(tenMb)));
  }
  const parse1 = summarize(parseTimes);
  const scan1 = summarize(scanTimes);
  const parse10 = summarize(parseTenTimes);
  const scan10 = summarize(scanTenTimes);
  const vsScan = parse1.median / scan1.median;
  const scaling = parse10.median / parse1.median;
  const scanScaling = scan10.median / scan1.median;
  return [
    `mention parsing: ${(oneMb.length / 1e6).toFixed(2)}M chars, ${mentions} mentions (one per ${Math.round(oneMb.length / mentions)} chars)`,
    line('parse 1 MB', parse1),
    line("indexOf('[') scan 1 MB", scan1),
    line('parse 10 MB', parse10),
    line("indexOf('[') scan 10 MB", scan10),
    `  parse / scan (1 MB):   ${vsScan.toFixed(2)}x  (goal <= 3x: ${vsScan <= 3 ? 'met' : 'NOT met'})`,
    `  parse 10 MB / 1 MB:    ${scaling.toFixed(2)}x  (goal <= 11x: ${scaling <= 11 ? 'met' : 'NOT met'})`,
    `  for scale: the scan alone, 10 MB / 1 MB: ${scanScaling.toFixed(2)}x on this machine`,
  ];
}
