/**
 * A reference model of the parser for differential tests: the same grammar as `src/Parse.ts`, written
 * the straightforward way (substrings, one object per step, no lookup tables). The optimized parser must agree with it on every input.
 */
import { app, plugin, skill, text, type ComposerDocument, type Mention, type Segment } from '../src/Document.js';
import { decodeTarget, isSigil } from '../src/internal/escaping.js';
import type { Token } from '../src/Parse.js';

/** The plain definition of an absolute path, without the in-place checks of `isAbsolutePath`. */
export function referenceIsAbsolutePath(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\\\') || /^[A-Za-z]:[\\/]/.test(path);
}

/** The plain definition of a skill file path, without the allocation-free fast path of `isSkillFilePath`. */
export function referenceIsSkillFilePath(path: string): boolean {
  if (!referenceIsAbsolutePath(path)) return false;
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(cut + 1).toLowerCase() === 'skill.md';
}

/**
 * Splits markdown into text runs and mentions, so a UI shows badges instead of protocol strings.
 * Adjacent text is merged into one token; empty text produces no token.
 *
 * @example
 * tokenize('Use [$pdf](/skills/pdf/SKILL.md) now').map((t) => t._tag) // ['Text', 'Mention', 'Text']
 */
export function referenceTokenize(markdown: string): Token[] {
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
export function referenceParse(markdown: string): ComposerDocument {
  const segments: Segment[] = [];
  scan(
    markdown,
    (value) => segments.push(text(value)),
    (mention) => segments.push(mention),
  );
  return segments;
}

/**
 * The one pass behind {@link parse} and {@link tokenize}: reports maximal non-empty text runs (escapes
 * resolved) and mentions, in order. Text without escapes is reported as a slice of the input, with
 * no copying.
 */
function scan(
  markdown: string,
  onText: (value: string, start: number, end: number) => void,
  onMention: (mention: Mention, start: number, end: number) => void,
): void {
  const specials = specialFinder(markdown);
  let runStart = 0;
  let copyFrom = 0;
  let unescaped = '';
  const flush = (end: number): void => {
    if (end > runStart) onText(unescaped + markdown.slice(copyFrom, end), runStart, end);
    unescaped = '';
  };
  let i = 0;
  for (;;) {
    i = specials(i);
    if (i === -1) break;
    if (markdown.charCodeAt(i) === 0x5c /* \ */) {
      const after = markdown[i + 1];
      if (after === '\\' || after === '[') {
        unescaped += markdown.slice(copyFrom, i) + after;
        copyFrom = i + 2;
        i += 2;
      } else i += 1;
      continue;
    }
    const found = isSigil(markdown[i + 1]) ? readMention(markdown, i) : null;
    if (found === null) {
      i += 1;
      continue;
    }
    flush(i);
    onMention(found.mention, i, found.end);
    i = runStart = copyFrom = found.end;
  }
  flush(markdown.length);
}

/**
 * Finds the next `\` or `[` at or after a position that only grows. Each `indexOf` result is kept
 * until the position passes it, so the whole string is scanned about once per character.
 */
function specialFinder(s: string): (from: number) => number {
  let bracket = -2;
  let backslash = -2;
  return (from) => {
    if (bracket !== -1 && bracket < from) bracket = s.indexOf('[', from);
    if (backslash !== -1 && backslash < from) backslash = s.indexOf('\\', from);
    if (bracket === -1) return backslash;
    if (backslash === -1) return bracket;
    return Math.min(bracket, backslash);
  };
}

/**
 * Reads a mention whose `[` is at `start` (a sigil follows it). The label scan stops at the first
 * raw `[`, and the target scan at the first `[` too, so no character is scanned by two attempts:
 * parsing stays linear.
 */
function readMention(s: string, start: number): { mention: Mention; end: number } | null {
  const sigil = s[start + 1];
  let unescaped = '';
  let copyFrom = start + 2;
  let i = start + 2;
  for (;;) {
    const code = s.charCodeAt(i);
    if (Number.isNaN(code) || code === 0x5b /* [ */) return null;
    if (code === 0x5d /* ] */) break;
    if (code === 0x5c /* \\ */) {
      const after = s[i + 1];
      if (after === '\\' || after === '[' || after === ']') {
        unescaped += s.slice(copyFrom, i) + after;
        copyFrom = i + 2;
        i += 2;
        continue;
      }
    }
    i += 1;
  }
  const name = unescaped + s.slice(copyFrom, i);
  if (name === '' || s[i + 1] !== '(') return null;
  const targetStart = i + 2;
  let j = targetStart;
  for (;;) {
    const code = s.charCodeAt(j);
    if (Number.isNaN(code)) return null;
    if (code === 0x29 /* ) */) break;
    if (code === 0x28 || code === 0x5b || code === 0x5d || isSpaceOrControl(code)) return null;
    j += 1;
  }
  const mention = classify(name, s.slice(targetStart, j), sigil === '@');
  return mention === null ? null : { mention, end: j + 1 };
}

function isSpaceOrControl(code: number): boolean {
  if (code <= 0x20 || code === 0x7f) return true;
  if (code < 0x85) return false;
  return /\s/.test(String.fromCharCode(code));
}

function classify(name: string, rawTarget: string, atSigil: boolean): Mention | null {
  if (rawTarget.startsWith('plugin://')) {
    const rest = rawTarget.slice('plugin://'.length);
    const at = rest.indexOf('@');
    if (at <= 0 || at === rest.length - 1) return null;
    return plugin(name, decodeTarget(rest.slice(0, at)), decodeTarget(rest.slice(at + 1)));
  }
  if (atSigil) return null;
  if (rawTarget.startsWith('app://')) {
    const id = decodeTarget(rawTarget.slice('app://'.length));
    return id === '' ? null : app(name, id);
  }
  if (rawTarget.startsWith('skill://')) {
    const path = decodeTarget(rawTarget.slice('skill://'.length));
    return referenceIsAbsolutePath(path) ? skill(name, path) : null;
  }
  const path = decodeTarget(rawTarget);
  return referenceIsSkillFilePath(path) ? skill(name, path) : null;
}
