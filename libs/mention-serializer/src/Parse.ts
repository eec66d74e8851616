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
import { app, isAbsolutePath, isSkillFilePath, plugin, skill, text, type ComposerDocument, type Mention, type Segment } from './Document.js';
import { decodeTarget } from './internal/escaping.js';

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
    (value) => segments.push(text(value)),
    (mention) => segments.push(mention),
  );
  return segments;
}

/** Where a mention candidate's reader leaves the mention it read; one per scan, reused. */
interface MentionSlot {
  mention: Mention | null;
}

/**
 * The one pass behind {@link parse} and {@link tokenize}: reports maximal non-empty text runs (escapes
 * resolved) and mentions, in order. Text without escapes is reported as a slice of the input, with
 * no copying.
 *
 * Only `[` and `\` can start anything but text, so the scan jumps between them with native
 * `indexOf` (each kept until the position passes it: the string is searched about once per
 * character) and never looks at the characters of a text run.
 */
function scan(
  markdown: string,
  onText: (value: string, start: number, end: number) => void,
  onMention: (mention: Mention, start: number, end: number) => void,
): void {
  const length = markdown.length;
  const slot: MentionSlot = { mention: null };
  let bracket = markdown.indexOf('[');
  let backslash = markdown.indexOf('\\');
  let runStart = 0;
  let copyFrom = 0;
  let unescaped = '';
  for (;;) {
    if (backslash !== -1 && (bracket === -1 || backslash < bracket)) {
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
      bracket = markdown.indexOf('[', i + 1);
      continue;
    }
    if (i > runStart) onText(unescaped + markdown.slice(copyFrom, i), runStart, i);
    unescaped = '';
    onMention(slot.mention, i, end);
    runStart = copyFrom = end;
    bracket = markdown.indexOf('[', end);
    if (backslash !== -1 && backslash < end) backslash = markdown.indexOf('\\', end);
  }
  if (length > runStart) onText(unescaped + markdown.slice(copyFrom), runStart, length);
}

/**
 * Reads a mention whose `[` is at `start` (a sigil follows it): returns the position after its `)`
 * and leaves the mention in `slot`, or returns -1. The label scan stops at the first raw `[`, and
 * the target scan at the first `[` too, so no character is scanned by two attempts: parsing stays
 * linear.
 */
function readMention(s: string, start: number, slot: MentionSlot): number {
  const length = s.length;
  const labelStart = start + 2;
  let escaped = false;
  let i = labelStart;
  for (;;) {
    if (i >= length) return -1;
    const code = s.charCodeAt(i);
    if (code === 0x5d /* ] */) break;
    if (code === 0x5b /* [ */) return -1;
    if (code === 0x5c /* \ */) {
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
  let j = targetStart;
  for (;;) {
    if (j >= length) return -1;
    const code = s.charCodeAt(j);
    if (code === 0x29 /* ) */) break;
    if (code <= 0x20 || code === 0x28 || code === 0x5b || code === 0x5d || code === 0x7f || (code >= 0x85 && isUnicodeSpace(code))) return -1;
    j += 1;
  }
  const name = escaped ? unescapeLabel(s, labelStart, i) : s.slice(labelStart, i);
  const mention = classify(s, name, targetStart, j, s.charCodeAt(start + 1) === 0x40 /* @ */);
  slot.mention = mention;
  return mention === null ? -1 : j + 1;
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

/** The mention a label and the raw target `s.slice(from, to)` stand for, if any. */
function classify(s: string, name: string, from: number, to: number, atSigil: boolean): Mention | null {
  if (s.startsWith('plugin://', from)) {
    const restStart = from + 'plugin://'.length;
    let at = restStart;
    while (at < to && s.charCodeAt(at) !== 0x40 /* @ */) at++;
    if (at === restStart || at >= to - 1) return null;
    return plugin(name, decodeTarget(s.slice(restStart, at)), decodeTarget(s.slice(at + 1, to)));
  }
  if (atSigil) return null;
  if (s.startsWith('app://', from)) {
    const id = decodeTarget(s.slice(from + 'app://'.length, to));
    return id === '' ? null : app(name, id);
  }
  if (s.startsWith('skill://', from)) {
    const path = decodeTarget(s.slice(from + 'skill://'.length, to));
    return isAbsolutePath(path) ? skill(name, path) : null;
  }
  const path = decodeTarget(s.slice(from, to));
  return isSkillFilePath(path) ? skill(name, path) : null;
}
