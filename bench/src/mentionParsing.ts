/**
 * The cost of parsing composer markdown for mentions, against the parser people actually write:
 * one global regular expression over the text for `[$name](target)` / `[@name](target)` links,
 * building the same kind of segment list (it mishandles escapes: `\\[$x](/a/SKILL.md)` is a
 * mention to it). Linearity is stated against the machine's own scaling: a plain linear pass over
 * the text (counting `[` with `indexOf`) on 10 MB and on 1 MB, so caches and memory of this machine
 * cancel out: (parse 10 MB / parse 1 MB) ÷ (scan 10 MB / scan 1 MB), from the per-pair ratios
 * parse/scan on each size. The same linearity is printed for `toTurnInput` and for the one-regex
 * parser; parse's and toTurnInput's are judged against the one-regex parser's (≤ 1.0×), since every
 * parser that returns a fresh result list pays for a result larger than the young generation and the
 * scan does not (their linearity against the scan is printed for reading).
 * Last, `toTurnInput` of 1 MB against `parse` of it (≤ 3×).
 *
 * Text: realistic prose (ASCII words with some accented and CJK words, punctuation, the odd
 * ordinary markdown link) with a skill, app or plugin mention about every 200 characters.
 */
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { app, parse, plugin, serialize, skill, text, toTurnInput, type Segment } from '@wework/mention-serializer';
import { comparePaired, derivedLine, sidesLine, verdictLine, type Comparison, type Plan } from './stats.js';

const PLAN_1MB: Plan = { pairs: Number(process.env['BENCH_MENTION_PAIRS'] ?? 15), warmup: 3, maxBatches: 5 };
/**
 * As many pairs per batch on 10 MB as on 1 MB: the 10 MB results are promoted, and their full
 * collections come every batch or two; with a third of the pairs, batches with and without one
 * alternated (about 9.5× and 13.5× the scan) and decided the linearity line.
 */
const PLAN_10MB: Plan = { pairs: PLAN_1MB.pairs, warmup: 2, maxBatches: 4 };
/**
 * Every timed sample of one side covers the same amount of text on both sizes: twenty runs over the
 * 1 MB text, two over the 10 MB text (and the scan 40 MB either way). A parse allocates about 1.35
 * bytes of result per character, so the samples also allocate alike (27 MB, more than the young
 * generation holds) and every sample of either size contains its share of young-generation
 * collections. With four 1 MB runs per sample against one 10 MB run, only about a third of the 1 MB
 * samples contained a collection, so their median left the collection cost out, while about half
 * of the 10 MB samples did, so that median jumped between the two (see the README).
 */
const REPEAT_1MB = 20;
const REPEAT_10MB = 2;
/** The scan is ten times cheaper than a parse: more repetitions per sample keep it above timer noise. */
const SCAN_REPEAT_1MB = 40;
const SCAN_REPEAT_10MB = 4;
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

/** What a regex-based parser finds: text runs and links with a sigil. */
type NaiveSegment = { readonly text: string } | { readonly sigil: string; readonly name: string; readonly target: string };

const NAIVE_MENTION = /\[([$@])([^\]]*)\]\(([^)\s]*)\)/g;

/**
 * The regex parser's segments are built with `new`, as `parse` builds its own, not as object literals:
 * V8 pretenures a literal's allocation site once a scavenge finds most of its objects alive, and a
 * scavenge landing in one of the first runs decided whether this baseline took about 1.0 or 1.7–1.9 ms
 * per MB for the rest of the process (so `parse / regex` read 0.69× in one run and 1.13× in the next,
 * and the linearity lines that divide by its scaling moved with it). Both sides now allocate alike.
 */
class NaiveText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

class NaiveMention {
  readonly sigil: string;
  readonly name: string;
  readonly target: string;
  constructor(sigil: string, name: string, target: string) {
    this.sigil = sigil;
    this.name = name;
    this.target = target;
  }
}

/** The naive parser: one global regular expression, no escapes, no target validation. */
export function naiveParse(markdown: string): NaiveSegment[] {
  const segments: NaiveSegment[] = [];
  let last = 0;
  for (const match of markdown.matchAll(NAIVE_MENTION)) {
    const at = match.index;
    if (at > last) segments.push(new NaiveText(markdown.slice(last, at)));
    segments.push(new NaiveMention(match[1] ?? '', match[2] ?? '', match[3] ?? ''));
    last = at + match[0].length;
  }
  if (markdown.length > last) segments.push(new NaiveText(markdown.slice(last)));
  return segments;
}

/** Times `repeat` runs of `run`, keeping each result alive. */
const time =
  (run: () => unknown, repeat = 1) =>
  (): number => {
    const start = performance.now();
    for (let i = 0; i < repeat; i++) if (run() === undefined) throw new Error('unreachable: keeps the result alive');
    return (performance.now() - start) / repeat;
  };

const scaling = (ten: Comparison, one: Comparison): number => ten.ratios.median / one.ratios.median;

/**
 * How much worse than the one-regex parser a parser scales from 1 MB to 10 MB, both measured against
 * the same scan: (parse 10 MB / parse 1 MB) ÷ (regex 10 MB / regex 1 MB), in which the scan cancels.
 */
export const relativeScaling = (parse10: Comparison, parse1: Comparison, regex10: Comparison, regex1: Comparison): number => scaling(parse10, parse1) / scaling(regex10, regex1);

/** Runs the benchmark and returns printable lines. */
export async function benchMentionParsing(): Promise<string[]> {
  const oneMb = mentionText(1_000_000);
  const tenMb = mentionText(10_000_000);
  const mentions = parse(oneMb).filter((s) => s._tag === 'Mention').length;
  const naiveMentions = naiveParse(oneMb).filter((s) => 'sigil' in s).length;
  const turnInput = (markdown: string) => (): unknown => {
    const result = toTurnInput(markdown);
    if (E.isLeft(result)) throw new Error('toTurnInput failed on parsed text');
    return result.right;
  };
  const vsNaive = await comparePaired(time(() => parse(oneMb), REPEAT_1MB), time(() => naiveParse(oneMb), REPEAT_1MB), PLAN_1MB);
  const turnVsParse = await comparePaired(time(turnInput(oneMb), REPEAT_1MB), time(() => parse(oneMb), REPEAT_1MB), PLAN_1MB);
  const parse1 = await comparePaired(time(() => parse(oneMb), REPEAT_1MB), time(() => baselineScan(oneMb), SCAN_REPEAT_1MB), PLAN_1MB);
  const parse10 = await comparePaired(time(() => parse(tenMb), REPEAT_10MB), time(() => baselineScan(tenMb), SCAN_REPEAT_10MB), PLAN_10MB);
  const naive1 = await comparePaired(time(() => naiveParse(oneMb), REPEAT_1MB), time(() => baselineScan(oneMb), SCAN_REPEAT_1MB), PLAN_1MB);
  const naive10 = await comparePaired(time(() => naiveParse(tenMb), REPEAT_10MB), time(() => baselineScan(tenMb), SCAN_REPEAT_10MB), PLAN_10MB);
  const turn1 = await comparePaired(time(turnInput(oneMb), REPEAT_1MB), time(() => baselineScan(oneMb), SCAN_REPEAT_1MB), PLAN_1MB);
  const turn10 = await comparePaired(time(turnInput(tenMb), REPEAT_10MB), time(() => baselineScan(tenMb), SCAN_REPEAT_10MB), PLAN_10MB);
  return [
    `mention parsing: ${(oneMb.length / 1e6).toFixed(2)}M chars, ${mentions} mentions (one per ${Math.round(oneMb.length / mentions)} chars; the regex finds ${naiveMentions})`,
    verdictLine('parse / one-regex parser, 1 MB', vsNaive, { atMost: 1.0 }),
    sidesLine('parse', 'regex', vsNaive),
    verdictLine("parse / indexOf('[') scan, 1 MB", parse1, null),
    sidesLine('parse (per run)', 'scan (per run)', parse1),
    verdictLine("parse / indexOf('[') scan, 10 MB", parse10, null),
    sidesLine('parse (per run)', 'scan (per run)', parse10),
    `  parse linearity against the scan, (parse 10 MB / 1 MB) ÷ (scan 10 MB / 1 MB): ${scaling(parse10, parse1).toFixed(3)}× (no goal: the scan allocates nothing, so a parser that returns a list cannot cancel against it)`,
    verdictLine("one-regex parser / indexOf('[') scan, 1 MB", naive1, null),
    sidesLine('regex (per run)', 'scan (per run)', naive1),
    verdictLine("one-regex parser / indexOf('[') scan, 10 MB", naive10, null),
    sidesLine('regex (per run)', 'scan (per run)', naive10),
    `  one-regex parser linearity, the same ratio: ${scaling(naive10, naive1).toFixed(3)}× (how a parser that builds a segment list scales on this machine)`,
    derivedLine('parse linearity against the one-regex parser, (parse 10 MB / 1 MB) ÷ (regex 10 MB / 1 MB)', relativeScaling(parse10, parse1, naive10, naive1), { atMost: 1.0 }, 'ratio of the two linearities above'),
    verdictLine("toTurnInput / indexOf('[') scan, 1 MB", turn1, null),
    sidesLine('toTurnInput (per run)', 'scan (per run)', turn1),
    verdictLine("toTurnInput / indexOf('[') scan, 10 MB", turn10, null),
    sidesLine('toTurnInput (per run)', 'scan (per run)', turn10),
    verdictLine('toTurnInput / parse, 1 MB', turnVsParse, { atMost: 3.0 }),
    sidesLine('toTurnInput', 'parse', turnVsParse),
    `  toTurnInput linearity against the scan, (10 MB / 1 MB) ÷ (scan 10 MB / 1 MB): ${scaling(turn10, turn1).toFixed(3)}× (for reading: like parse, it returns a result larger than the young generation, which the scan does not)`,
    derivedLine('toTurnInput linearity against the one-regex parser, (toTurnInput 10 MB / 1 MB) ÷ (regex 10 MB / 1 MB)', relativeScaling(turn10, turn1, naive10, naive1), { atMost: 1.0 }, "judged like parse's, against a parser that builds its result"),
  ];
}
