/**
 * The composer's content as a model: a {@link ComposerDocument} of `@wework/mention-serializer` (text and
 * indivisible mentions, always in normal form) and a caret counted in **units**: one per UTF-16 code unit
 * of text, one per mention. A mention is one unit, so a caret is always before or after it, never inside.
 * The view maps the browser's selection to units with {@link unitOfDisplayOffset}, where a mention
 * takes the length of its label (`$name`, `@name`) and an offset inside a label is snapped out of it.
 *
 * Every function here is pure and total: a document and a caret in, a new document and caret out.
 */
import { normalize, parse, serialize, sigilOf, text, type ComposerDocument, type Mention, type Segment } from '@wework/mention-serializer';

/** A document and where the caret is (in units). */
export interface Draft {
  readonly doc: ComposerDocument;
  readonly caret: number;
}

/** The empty composer. */
export const emptyDraft: Draft = { doc: [], caret: 0 };

/** How many units a segment takes: its text's length, or 1 for a mention. */
const unitsOf = (segment: Segment): number => (segment._tag === 'Text' ? segment.text.length : 1);

/** The document's length in units. */
export const lengthOf = (doc: ComposerDocument): number => doc.reduce((sum, s) => sum + unitsOf(s), 0);

/** `caret` kept within the document. */
export const clampCaret = (doc: ComposerDocument, caret: number): number => Math.max(0, Math.min(lengthOf(doc), Number.isFinite(caret) ? Math.trunc(caret) : 0));

/** What the user sees of a mention: its sigil and name. */
export const labelOf = (mention: Mention): string => `${sigilOf(mention)}${mention.name}`;

/** The units `[start, end)` of the document, as a document (what copy takes). */
export function sliceDoc(doc: ComposerDocument, start: number, end: number): ComposerDocument {
  const out: Segment[] = [];
  let at = 0;
  for (const segment of doc) {
    const size = unitsOf(segment);
    const from = Math.max(start, at);
    const to = Math.min(end, at + size);
    if (from < to) out.push(segment._tag === 'Text' ? text(segment.text.slice(from - at, to - at)) : segment);
    at += size;
  }
  return normalize(out);
}

/** The document with the units `[start, end)` replaced by `inserted`; the caret after what was inserted. */
export function replaceRange(doc: ComposerDocument, start: number, end: number, inserted: ComposerDocument): Draft {
  const length = lengthOf(doc);
  const from = clampCaret(doc, Math.min(start, end));
  const to = clampCaret(doc, Math.max(start, end));
  const next = normalize([...sliceDoc(doc, 0, from), ...inserted, ...sliceDoc(doc, to, length)]);
  return { doc: next, caret: from + lengthOf(normalize(inserted)) };
}

/** Typing (or pasting) `value` at the caret, replacing the selection `[caret, selectionEnd)` if any. */
export const insertText = (draft: Draft, value: string, selectionEnd: number = draft.caret): Draft => replaceRange(draft.doc, draft.caret, selectionEnd, value === '' ? [] : [text(value)]);

/** Pasting Codex markdown: its mentions arrive as mentions. */
export const insertMarkdown = (draft: Draft, markdown: string, selectionEnd: number = draft.caret): Draft => replaceRange(draft.doc, draft.caret, selectionEnd, parse(markdown));

/** Backspace: the selection if any, else the unit before the caret (a whole mention, or one character, a surrogate pair whole). */
export function deleteBackward(draft: Draft, selectionEnd: number = draft.caret): Draft {
  if (selectionEnd !== draft.caret) return replaceRange(draft.doc, draft.caret, selectionEnd, []);
  if (draft.caret === 0) return { doc: draft.doc, caret: 0 };
  const width = isLowSurrogateBefore(draft.doc, draft.caret) ? 2 : 1;
  return replaceRange(draft.doc, draft.caret - width, draft.caret, []);
}

/** Delete: the selection if any, else the unit after the caret. */
export function deleteForward(draft: Draft, selectionEnd: number = draft.caret): Draft {
  if (selectionEnd !== draft.caret) return replaceRange(draft.doc, draft.caret, selectionEnd, []);
  if (draft.caret >= lengthOf(draft.doc)) return draft;
  const width = isLowSurrogateBefore(draft.doc, draft.caret + 2) && isHighSurrogateAt(draft.doc, draft.caret) ? 2 : 1;
  return { doc: replaceRange(draft.doc, draft.caret, draft.caret + width, []).doc, caret: draft.caret };
}

/** The text character at unit `at`, or `null` for a mention or the end. */
function charAt(doc: ComposerDocument, at: number): string | null {
  let start = 0;
  for (const segment of doc) {
    const size = unitsOf(segment);
    if (at < start + size) return segment._tag === 'Text' ? (segment.text[at - start] ?? null) : null;
    start += size;
  }
  return null;
}
const isHighSurrogateAt = (doc: ComposerDocument, at: number): boolean => /[\uD800-\uDBFF]/.test(charAt(doc, at) ?? '');
const isLowSurrogateBefore = (doc: ComposerDocument, at: number): boolean => at >= 2 && /[\uDC00-\uDFFF]/.test(charAt(doc, at - 1) ?? '') && isHighSurrogateAt(doc, at - 2);

/** ArrowLeft (`-1`) or ArrowRight (`1`): one unit, so a mention is stepped over whole. */
export const moveCaret = (draft: Draft, direction: -1 | 1): Draft => ({ doc: draft.doc, caret: clampCaret(draft.doc, draft.caret + direction) });

/** The segment index and the unit where a mention starts, for each mention of the document. */
export function mentionUnits(doc: ComposerDocument): ReadonlyArray<{ readonly index: number; readonly unit: number }> {
  const out: Array<{ index: number; unit: number }> = [];
  let at = 0;
  doc.forEach((segment, index) => {
    if (segment._tag === 'Mention') out.push({ index, unit: at });
    at += unitsOf(segment);
  });
  return out;
}

/**
 * The unit of a display offset (text in characters, a mention the length of its label): an offset
 * inside a label is snapped out of it, to the mention's start when `bias` is `-1`, its end when `1`,
 * and to the nearer edge when `0`.
 */
export function unitOfDisplayOffset(doc: ComposerDocument, offset: number, bias: -1 | 0 | 1 = 0): number {
  let display = 0;
  let unit = 0;
  for (const segment of doc) {
    if (segment._tag === 'Text') {
      if (offset <= display + segment.text.length) return unit + Math.max(0, offset - display);
      display += segment.text.length;
      unit += segment.text.length;
    } else {
      const width = labelOf(segment).length;
      if (offset <= display) return unit;
      if (offset < display + width) {
        const after = bias === 1 || (bias === 0 && offset - display > width / 2);
        return after ? unit + 1 : unit;
      }
      display += width;
      unit += 1;
    }
  }
  return unit;
}

/** The display offset of a unit (the inverse of {@link unitOfDisplayOffset} on unit boundaries). */
export function displayOffsetOfUnit(doc: ComposerDocument, caret: number): number {
  let display = 0;
  let unit = 0;
  for (const segment of doc) {
    const size = unitsOf(segment);
    if (caret < unit + size) return segment._tag === 'Text' ? display + (caret - unit) : display;
    display += segment._tag === 'Text' ? segment.text.length : labelOf(segment).length;
    unit += size;
  }
  return display;
}

/** A picker trigger being typed: `$` (skills and apps) or `@` (plugins), then the filter typed so far. */
export interface Trigger {
  readonly sigil: '$' | '@';
  readonly query: string;
  /** The unit of the sigil. */
  readonly start: number;
}

const TRIGGER = /(?:^|\s)([$@])([^\s$@[\]()]{0,64})$/u;

/**
 * The trigger the caret is at the end of, or `null`: a `$` or `@` at the start of the text or after
 * white space, followed by the characters typed since (no white space, brackets or another sigil),
 * all within the one text segment before the caret.
 */
export function triggerAt(draft: Draft): Trigger | null {
  let at = 0;
  for (const segment of draft.doc) {
    const size = unitsOf(segment);
    if (segment._tag === 'Text' && draft.caret > at && draft.caret <= at + size) {
      const before = segment.text.slice(0, draft.caret - at);
      const match = TRIGGER.exec(before);
      if (match === null || match[1] === undefined || match[2] === undefined) return null;
      return { sigil: match[1] as '$' | '@', query: match[2], start: at + before.length - match[2].length - 1 };
    }
    at += size;
  }
  return null;
}

/** Accepting a picked mention: the trigger (or nothing, when picked from the button) is replaced by the mention and one space. */
export const acceptMention = (draft: Draft, mention: Mention, trigger: Trigger | null): Draft => replaceRange(draft.doc, trigger?.start ?? draft.caret, draft.caret, [mention, text(' ')]);

/** The draft of Codex markdown (its mentions as mentions), caret at the end. */
export function draftOfMarkdown(markdown: string): Draft {
  const doc = normalize(parse(markdown));
  return { doc, caret: lengthOf(doc) };
}

/** The draft as Codex markdown (what Send and Copy give). */
export const markdownOf = (doc: ComposerDocument): string => serialize(doc);

/** Whether there is anything to send (white space alone is not). */
export const isBlank = (doc: ComposerDocument): boolean => doc.every((s) => s._tag === 'Text' && s.text.trim() === '');

/** The mentions of the document, in order. */
export const mentionsOf = (doc: ComposerDocument): ReadonlyArray<Mention> => doc.filter((s): s is Mention => s._tag === 'Mention');
