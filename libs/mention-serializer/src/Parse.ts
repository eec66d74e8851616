/**
 * Markdown with mentions → composer document, and → render tokens. Every function is pure and
 * total: any string parses, in time linear in its length; what is not a well-formed mention stays
 * text.
 *
 * A mention is `[` sigil label `]` `(` target `)`, with no space between the parts:
 *
 * | target                                   | kind   | sigils     |
 * | ---------------------------------------- | ------ | ---------- |
 * | absolute path ending in `SKILL.md`       | skill  | `$`        |
 * | `skill://` + absolute path (legacy form) | skill  | `$`        |
 * | `app://<connector id>`                   | app    | `$`        |
 * | `plugin://<plugin name>@<marketplace>`   | plugin | `@` or `$` |
 */
import { isAbsolutePath, isSkillFilePath, type ComposerDocument, type Mention, type Segment } from './Document.js';
import { decodeTarget } from './internal/escaping.js';
import { parsedApp, parsedPlugin, parsedSkill, parsedText } from './internal/parsedSegments.js';
import { asciiSkillFileNameAt, hasPrefixAt, isAbsolutePathAt } from './internal/paths.js';

/** A span of the markdown string, in UTF-16 code units (`markdown.slice(start, end)`). */
export interface SourceRange {
  readonly start: number;
  readonly end: number;
}

/** Text to show as is (escapes already resolved). */
export interface TextToken {
  readonly _tag: 'Text';
  readonly text: string;
  readonly source: SourceRange;
}

/** A mention to show as a badge; `source` is the markdown it was written as. */
export interface MentionToken {
  readonly _tag: 'Mention';
  readonly mention: Mention;
  readonly source: SourceRange;
}

/** What a stored message renders as: text runs and mention badges, in order. */
export type Token = TextToken | MentionToken;

/**
 * Splits markdown into text runs and mentions, so a UI shows badges instead of protocol strings.
 * Adjacent text is merged into one token; empty text produces no token.
 *
 * @example
 * tokenize('Use [$pdf](/skills/pdf/SKILL.md) now').map((t) => t._tag) // ['Text', 'Mention', 'Text']
 */
export function tokenize(markdown: string): Token[] {
  const tokens: Token[] = [];
  scan(
    markdown,
    (value, start, end) => tokens.push({ _tag: 'Text', text: value, source: { start, end } }),
    (mention, start, end) => tokens.push({ _tag: 'Mention', mention, source: { start, end } }),
  );
  return tokens;
}

/**
 * Parses markdown into a composer document (in normal form). Accepts everything
 * {@link serialize} emits, both plugin sigils, and the legacy `skill://` links.
 *
 * @example
 * parse('[@Sites](plugin://wegent-sites@wegent) build it')
 * // [plugin('Sites', 'wegent-sites', 'wegent'), text(' build it')]
 */
export function parse(markdown: string): ComposerDocument {
  const segments: Segment[] = [];
  scan(
    markdown,
    (value) => segments.push(parsedText(value)),
    (mention) => segments.push(mention),
  );
  return segments;
}

/** Where a mention candidate's reader leaves the mention it read; one per scan, reused. */
export interface MentionSlot {
  mention: Mention | null;
  /** Whether the mention's source holds only ASCII (each character one UTF-8 byte). */
  ascii: boolean;
  /** Whether its label holds no `\\` and its target no `%`, so both read exactly as they are written. */
  literal: boolean;
}

/**
 * The one pass behind {@link parse}, {@link tokenize} and `toTurnInput`'s reading of markdown (not
 * exported by the package): reports maximal non-empty text runs (escapes resolved) and mentions, in
 * order. Text without escapes is reported as a slice of the input, with no copying. What the scan
 * sees on its way is reported too, so that a caller writing the markdown back need not look at the
 * source again: whether a text run is `plain` (it holds no `\\` and no `[` followed by a sigil, so
 * its value is its source and escaping leaves it unchanged), and whether a mention's source is all
 * ASCII (its length is its length in UTF-8 bytes) and `literal` (see {@link MentionSlot}).
 *
 * Only `[` and `\` can start anything but text, so the scan jumps between them with native
 * `indexOf` (each kept until the position passes it: the string is searched about once per
 * character) and never looks at the characters of a text run.
 */
export function scan(
  markdown: string,
  onText: (value: string, start: number, end: number, plain: boolean) => void,
  onMention: (mention: Mention, start: number, end: number, ascii: boolean, literal: boolean) => void,
): void {
  const length = markdown.length;
  const slot: MentionSlot = { mention: null, ascii: true, literal: true };
  let bracket = markdown.indexOf('[');
  let backslash = markdown.indexOf('\\');
  let runStart = 0;
  let copyFrom = 0;
  let unescaped = '';
  /** Whether the current run has shown no `\\` and no `[` followed by a sigil yet. */
  let plain = true;
  for (;;) {
    if (backslash !== -1 && (bracket === -1 || backslash < bracket)) {
      // Every backslash the scan stops at lies in the current run (it restarts after a mention).
      plain = false;
      const i = backslash;
      const after = markdown.charCodeAt(i + 1);
      let next = i + 1;
      if (after === 0x5c /* \ */ || after === 0x5b /* [ */) {
        unescaped += markdown.slice(copyFrom, i) + (after === 0x5c ? '\\' : '[');
        copyFrom = next = i + 2;
      }
      backslash = markdown.indexOf('\\', next);
      if (bracket !== -1 && bracket < next) bracket = markdown.indexOf('[', next);
      continue;
    }
    if (bracket === -1) break;
    const i = bracket;
    const sigil = markdown.charCodeAt(i + 1);
    const end = sigil === 0x24 /* $ */ || sigil === 0x40 /* @ */ ? readMention(markdown, i, slot) : -1;
    if (end === -1 || slot.mention === null) {
      if (sigil === 0x24 || sigil === 0x40) plain = false;
      bracket = markdown.indexOf('[', i + 1);
      continue;
    }
    if (i > runStart) onText(unescaped + markdown.slice(copyFrom, i), runStart, i, plain);
    unescaped = '';
    plain = true;
    onMention(slot.mention, i, end, slot.ascii, slot.literal);
    runStart = copyFrom = end;
    bracket = markdown.indexOf('[', end);
    if (backslash !== -1 && backslash < end) backslash = markdown.indexOf('\\', end);
  }
  if (length > runStart) onText(unescaped + markdown.slice(copyFrom), runStart, length, plain);
}

/**
 * Reads a mention whose `[` is at `start` (a sigil follows it): returns the position after its `)`
 * and leaves the mention in `slot` (with what the scan saw of its source), or returns -1. Not
 * exported by the package; its tests check it against {@link readMentionByLoop}.
 *
 * The common mention, all ASCII with no escape and no `%`, is recognized by one sticky regular
 * expression, matched by the engine's native code at about half the cost of reading it character
 * by character here; only its label and target are then read (by {@link classify}). Any other
 * candidate is read by {@link readMentionByLoop}. The expression cannot backtrack (the label's
 * characters exclude `]`, the target's `)`), and stops where the loop does or earlier (at a raw
 * `[`, a `\\`, a non-ASCII character, a `%`, or what ends the attempt), so a character is read at
 * most twice by one attempt and by no other: parsing stays linear.
 */
export function readMention(s: string, start: number, slot: MentionSlot): number {
  const labelStart = start + 2;
  SIMPLE_MENTION_REST.lastIndex = labelStart;
  if (!SIMPLE_MENTION_REST.test(s)) return readMentionByLoop(s, start, slot);
  const targetEnd = SIMPLE_MENTION_REST.lastIndex - 1;
  const labelEnd = s.indexOf(']', labelStart);
  slot.ascii = true;
  slot.literal = true;
  return readMentionParts(s, start, labelEnd, targetEnd, false, false, slot);
}

/**
 * What follows the sigil of a mention that {@link readMention} reads without a loop: a non-empty
 * label of ASCII characters but `[`, `\\` and `]`, then `](`, then a target of printable ASCII
 * characters but `(`, `)`, `[`, `]` and `%`, then `)`. Sticky (`y`): it matches at `lastIndex` only.
 */
const SIMPLE_MENTION_REST = /[^[\\\]\u0080-\uffff]+\]\([!-$&'*-Z\\^-~]*\)/y;

/**
 * {@link readMention} for any candidate, one character at a time. The label scan stops at the first
 * raw `[`, and the target scan at the first `[` too, so no character is scanned by two attempts.
 */
export function readMentionByLoop(s: string, start: number, slot: MentionSlot): number {
  const length = s.length;
  const labelStart = start + 2;
  let escaped = false;
  let backslash = false;
  /** The label's code units or-ed together: 0x80 or above once one is not ASCII. */
  let labelBits = 0;
  let i = labelStart;
  for (;;) {
    if (i >= length) return -1;
    const code = s.charCodeAt(i);
    labelBits |= code;
    if (code === 0x5d /* ] */) break;
    if (code === 0x5b /* [ */) return -1;
    if (code === 0x5c /* \ */) {
      backslash = true;
      const after = s.charCodeAt(i + 1);
      if (after === 0x5c || after === 0x5b || after === 0x5d) {
        escaped = true;
        i += 2;
        continue;
      }
    }
    i += 1;
  }
  if (i === labelStart || s.charCodeAt(i + 1) !== 0x28 /* ( */) return -1;
  const targetStart = i + 2;
  let targetEnd = targetStart;
  let percent = false;
  let ascii = labelBits < 0x80;
  for (let j = targetStart; ; j++) {
    if (j >= length) return -1;
    const code = s.charCodeAt(j);
    // Most of a target is `*` to `~` (letters, digits, `/`, `.`, `-`, `_`, `:`, `@`): plain but `[`, `]`.
    if (code > 0x29 /* ) */ && code < 0x7f) {
      if (code === 0x5b /* [ */ || code === 0x5d /* ] */) return -1;
      continue;
    }
    if (code === 0x29 /* ) */) {
      targetEnd = j;
      break;
    }
    if (code < 0x80) {
      // Controls, space, `(` and DEL are forbidden; `!` to `'` are plain but `%`.
      if (code <= 0x20 || code === 0x28 /* ( */ || code === 0x7f) return -1;
      if (code === 0x25 /* % */) percent = true;
    } else {
      ascii = false;
      if (code >= 0x85 && isUnicodeSpace(code)) return -1;
    }
  }
  slot.ascii = ascii;
  slot.literal = !backslash && !percent;
  return readMentionParts(s, start, i, targetEnd, escaped, percent, slot);
}

/**
 * Classifies the link whose `[` is at `start`, its label's `]` at `labelEnd` and its target's `)` at
 * `targetEnd` (`escaped`: the label holds an escape; `percent`: the target holds a `%`), and leaves
 * the mention in `slot`, whose other fields the reader has set; returns the position after the `)`,
 * or -1 when the link is no mention.
 */
function readMentionParts(s: string, start: number, labelEnd: number, targetEnd: number, escaped: boolean, percent: boolean, slot: MentionSlot): number {
  const labelStart = start + 2;
  const name = escaped ? unescapeLabel(s, labelStart, labelEnd) : s.slice(labelStart, labelEnd);
  const mention = classify(s, name, labelEnd + 2, targetEnd, percent, s.charCodeAt(start + 1) === 0x40 /* @ */);
  slot.mention = mention;
  return mention === null ? -1 : targetEnd + 1;
}

/** The label between `from` and `to` with `\\`, `\[`, `\]` resolved. */
function unescapeLabel(s: string, from: number, to: number): string {
  let out = '';
  let copyFrom = from;
  for (let i = from; i < to; i++) {
    if (s.charCodeAt(i) !== 0x5c) continue;
    const after = s.charCodeAt(i + 1);
    if (after === 0x5c || after === 0x5b || after === 0x5d) {
      out += s.slice(copyFrom, i);
      copyFrom = i + 1;
      i += 1;
    }
  }
  return out + s.slice(copyFrom, to);
}

const UNICODE_SPACE = /\s/;

function isUnicodeSpace(code: number): boolean {
  return UNICODE_SPACE.test(String.fromCharCode(code));
}

/** The position of the first `code` in `s` between `from` and `to`, or -1. */
function indexOfCodeIn(s: string, code: number, from: number, to: number): number {
  for (let k = from; k < to; k++) if (s.charCodeAt(k) === code) return k;
  return -1;
}

/** `decodeTarget` of `s.slice(from, to)`, skipping the search for `%` when the caller saw none. */
const decodeSlice = (s: string, from: number, to: number, percent: boolean): string => (percent ? decodeTarget(s.slice(from, to)) : s.slice(from, to));

/**
 * The mention a label and the raw target `s.slice(from, to)` stand for, if any. `percent` is
 * whether the target holds a `%`. Without a `%`
 * the target is its own decoding, so it is tested in place and sliced only once it is accepted.
 */
function classify(s: string, name: string, from: number, to: number, percent: boolean, atSigil: boolean): Mention | null {
  const first = s.charCodeAt(from);
  if (first === 0x70 /* p */ && hasPrefixAt(s, from, 'plugin://')) {
    const restStart = from + 'plugin://'.length;
    const firstAt = indexOfCodeIn(s, 0x40 /* @ */, restStart, to);
    if (firstAt <= restStart || firstAt >= to - 1) return null;
    return parsedPlugin(name, decodeSlice(s, restStart, firstAt, percent), decodeSlice(s, firstAt + 1, to, percent));
  }
  if (atSigil) return null;
  if (first === 0x61 /* a */ && hasPrefixAt(s, from, 'app://')) {
    const id = decodeSlice(s, from + 'app://'.length, to, percent);
    return id === '' ? null : parsedApp(name, id);
  }
  if (first === 0x73 /* s */ && hasPrefixAt(s, from, 'skill://')) {
    const pathStart = from + 'skill://'.length;
    if (!percent) return isAbsolutePathAt(s, pathStart, to) ? parsedSkill(name, s.slice(pathStart, to)) : null;
    const path = decodeTarget(s.slice(pathStart, to));
    return isAbsolutePath(path) ? parsedSkill(name, path) : null;
  }
  if (!percent) {
    if (!isAbsolutePathAt(s, from, to)) return null;
    const isSkillFile = asciiSkillFileNameAt(s, from, to);
    if (isSkillFile !== undefined) return isSkillFile ? parsedSkill(name, s.slice(from, to)) : null;
  }
  const path = decodeSlice(s, from, to, percent);
  return isSkillFilePath(path) ? parsedSkill(name, path) : null;
}
