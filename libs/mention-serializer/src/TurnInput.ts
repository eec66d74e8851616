/**
 * Composer content → the `input` of Codex `turn/start` (`UserInputStrict[]`, what we send). Every function is pure.
 *
 * The result is one `text` item carrying the serialized markdown, with a `text_elements` entry
 * per mention (its UTF-8 byte range and a `$name`/`@name` placeholder), followed by one structured
 * item per mention in document order: `{ type: 'skill', name, path }` for skills and
 * `{ type: 'mention', name, path }` for apps (`app://id`) and plugins (`plugin://name@marketplace`).
 */
import type { TextElement, UserInputStrict } from '@wework/codex-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { isSkillFilePath, mentionProblem, normalize, validateDocument, type ComposerDocument, type InvalidMention, type Mention } from './Document.js';
import { scan } from './Parse.js';
import { serializeMention, sigilOf, targetOf } from './Serialize.js';
import { escapeText, utf8Length } from './internal/escaping.js';
import { mentionItem, skillItem, textElement, textItem } from './internal/turnInputItems.js';

/** The structured item Codex consumes for one mention. */
export function structuredItemOf(mention: Mention): UserInputStrict {
  return mention.kind === 'skill' ? skillItem(mention.name, mention.path) : mentionItem(mention.name, targetOf(mention));
}

/**
 * Builds `turn/start` input from a document or from markdown (which is parsed first, so its
 * mentions are always valid). A document with a mention that would not read back fails with the
 * first {@link InvalidMention}.
 *
 * @example
 * toTurnInput('Try [@Sites](plugin://wegent-sites@wegent)')
 * // right([
 * //   { type: 'text', text: 'Try [@Sites](plugin://wegent-sites@wegent)',
 * //     text_elements: [{ byteRange: { start: 4, end: 42 }, placeholder: '@Sites' }] },
 * //   { type: 'mention', name: 'Sites', path: 'plugin://wegent-sites@wegent' },
 * // ])
 */
export function toTurnInput(input: ComposerDocument | string): E.Either<InvalidMention, UserInputStrict[]> {
  if (typeof input === 'string') return markdownToTurnInput(input);
  return E.map(documentToTurnInput)(validateDocument(input));
}

/**
 * Markdown → turn input, reusing the source ranges the parser found. The result equals that of the
 * parsed document (`documentToTurnInput(parse(markdown))`): each token's canonical form (its text
 * escaped, or its mention serialized) is compared with the markdown it was read from, and where
 * they agree (almost always) the markdown is kept as it is and its bytes are counted in place. Only
 * from the first token written differently (an unneeded escape, the `$` sigil of a plugin, a legacy
 * `skill://` link, …) are the parts joined into a new string. Parsed mentions always validate, but
 * they are checked as a document's are.
 */
function markdownToTurnInput(markdown: string): E.Either<InvalidMention, UserInputStrict[]> {
  const builder = new MarkdownTurnInput(markdown);
  scan(
    markdown,
    (value, start, end, plain) => builder.onText(value, start, end, plain),
    (mention, start, end, ascii, literal) => builder.onMention(mention, start, end, ascii, literal),
  );
  return builder.finish();
}

/** The state of {@link markdownToTurnInput} as the scan reports text runs and mentions. */
class MarkdownTurnInput {
  readonly #markdown: string;
  readonly #elements: TextElement[] = [];
  readonly #structured: UserInputStrict[] = [];
  /** The parts written so far once one differs from its source; null while the markdown is canonical. */
  #parts: string[] | null = null;
  #bytes = 0;
  /** How many segments the parsed document has so far (a mention's index in it). */
  #segments = 0;
  #problem: InvalidMention | null = null;
  /** The last text run, kept until it is known whether a mention follows it (escaping depends on it). */
  #text: string | null = null;
  #textStart = 0;
  #textEnd = 0;
  #textPlain = false;

  constructor(markdown: string) {
    this.#markdown = markdown;
  }

  /** `plain`: whether the run holds no `\\` and no `[` before a sigil (the scan's word for it). */
  onText(value: string, start: number, end: number, plain: boolean): void {
    this.#text = value;
    this.#textStart = start;
    this.#textEnd = end;
    this.#textPlain = plain;
  }

  /**
   * `ascii`: whether the mention's source is all ASCII, so its length in UTF-8 bytes is `end - start`;
   * `literal`: whether its label holds no `\\` and its target no `%` (the scan's words for them).
   */
  onMention(mention: Mention, start: number, end: number, ascii: boolean, literal: boolean): void {
    this.#flushText(true);
    const index = this.#segments++;
    if (this.#problem !== null) return;
    this.#problem = mentionProblem(mention, index);
    const markdown = this.#markdown;
    let length: number;
    const bytes = this.#parts === null && literal ? this.#serializedBytesAt(mention, start, end, ascii) : -1;
    if (bytes !== -1) length = bytes;
    else {
      const part = serializeMention(mention);
      length = this.#parts === null && part === markdown.slice(start, end) ? sourceBytes(markdown, start, end, ascii) : this.#differs(part, start);
    }
    this.#elements.push(textElement(this.#bytes, this.#bytes + length, sigilOf(mention) + mention.name));
    this.#structured.push(structuredItemOf(mention));
    this.#bytes += length;
  }

  finish(): E.Either<InvalidMention, UserInputStrict[]> {
    this.#flushText(false);
    if (this.#problem !== null) return E.left(this.#problem);
    const text = this.#parts === null ? this.#markdown : this.#parts.join('');
    this.#structured.unshift(textItem(text, this.#elements));
    return E.right(this.#structured);
  }

  #flushText(followedByMention: boolean): void {
    const value = this.#text;
    if (value === null) return;
    this.#text = null;
    this.#segments++;
    if (this.#parts === null && this.#textPlain) {
      // Neither an escape to read nor one to write: the text is the source's own slice, counted whole.
      this.#bytes += utf8Length(value);
      return;
    }
    const start = this.#textStart;
    const end = this.#textEnd;
    const part = escapeText(value, followedByMention);
    // The text is shorter than its source by one character per escape, and escaping only adds: a
    // text as long as its source (no escape read) and as its part (none written) is both.
    const asWritten = this.#parts === null && value.length === end - start && part.length === value.length;
    // As written, the text is the source's own slice: it is counted whole, with no second slice made.
    this.#bytes += asWritten ? utf8Length(value) : this.#differs(part, start);
  }

  /**
   * The length in UTF-8 bytes of `[start, end)`, where the scan read a literal mention (a label
   * without `\\`, a target without `%`), if it is written exactly as `serializeMention` writes it,
   * else -1; decided from lengths. The parser reads such a label as it is (it cannot hold a raw `[`
   * or `]`, so it needs no escape), and such a target as it is; the target holds none of the
   * characters the serializer percent-encodes but C1 controls (the parser refuses the others raw,
   * and a plugin name ends at its first `@`), looked for only when the mention is not all ASCII.
   * With the canonical sigil, the length then tells the link form (a `skill://` prefix or not)
   * apart. -1 sends the caller to compare with `serializeMention`, so it is never wrong, only slower.
   */
  #serializedBytesAt(mention: Mention, start: number, end: number, ascii: boolean): number {
    const markdown = this.#markdown;
    if (markdown.charCodeAt(start + 1) !== (mention.kind === 'plugin' ? 0x40 /* @ */ : 0x24) /* $ */) return -1;
    if (end - start !== 2 + mention.name.length + 2 + serializedTargetLength(mention) + 1) return -1;
    if (ascii) return end - start;
    return C1_CONTROL.test(markdown.slice(start, end)) ? -1 : utf8Length(markdown, start, end);
  }

  /** Records a part written differently from its source at `start`; returns its length in bytes. */
  #differs(part: string, start: number): number {
    this.#parts ??= start > 0 ? [this.#markdown.slice(0, start)] : [];
    this.#parts.push(part);
    return utf8Length(part);
  }
}

/** The UTF-8 length of `markdown.slice(start, end)`, which is its length when it is all ASCII. */
const sourceBytes = (markdown: string, start: number, end: number, ascii: boolean): number => (ascii ? end - start : utf8Length(markdown, start, end));

/** A C1 control character (U+0080–U+009F), which targets percent-encode and the parser leaves raw (but U+0085). */
const C1_CONTROL = /[\u0080-\u009f]/;

/** The length of a mention's target as `serializeMention` writes it, when nothing in it is percent-encoded. */
function serializedTargetLength(mention: Mention): number {
  switch (mention.kind) {
    case 'skill':
      return (isSkillFilePath(mention.path) ? 0 : 'skill://'.length) + mention.path.length;
    case 'app':
      return 'app://'.length + mention.connectorId.length;
    case 'plugin':
      return 'plugin://'.length + mention.pluginName.length + 1 + mention.marketplaceName.length;
  }
}

/**
 * One pass over the segments: each part is serialized once, its UTF-8 length counted once, the
 * mention's element and structured item recorded as it goes, and the markdown joined once at the
 * end. No intermediate list of mentions with ranges, no second walk over the joined text.
 */
function documentToTurnInput(doc: ComposerDocument): UserInputStrict[] {
  const segments = normalize(doc);
  const parts: string[] = [];
  const elements: TextElement[] = [];
  const structured: UserInputStrict[] = [];
  let bytes = 0;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index];
    if (segment === undefined) continue;
    if (segment._tag === 'Text') {
      const part = escapeText(segment.text, segments[index + 1]?._tag === 'Mention');
      bytes += utf8Length(part);
      parts.push(part);
      continue;
    }
    const part = serializeMention(segment);
    const length = utf8Length(part);
    elements.push(textElement(bytes, bytes + length, sigilOf(segment) + segment.name));
    bytes += length;
    parts.push(part);
    structured.push(structuredItemOf(segment));
  }
  structured.unshift(textItem(parts.join(''), elements));
  return structured;
}
