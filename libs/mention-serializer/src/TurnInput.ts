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
import { normalize, validateDocument, type ComposerDocument, type InvalidMention, type Mention } from './Document.js';
import { parse } from './Parse.js';
import { serializeMention, sigilOf, targetOf } from './Serialize.js';
import { escapeText, utf8Length } from './internal/escaping.js';

/** The structured item Codex consumes for one mention. */
export function structuredItemOf(mention: Mention): UserInputStrict {
  return mention.kind === 'skill'
    ? { type: 'skill', name: mention.name, path: mention.path }
    : { type: 'mention', name: mention.name, path: targetOf(mention) };
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
  const doc = typeof input === 'string' ? parse(input) : input;
  return E.map(documentToTurnInput)(validateDocument(doc));
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
    elements.push({ byteRange: { start: bytes, end: bytes + length }, placeholder: sigilOf(segment) + segment.name });
    bytes += length;
    parts.push(part);
    structured.push(structuredItemOf(segment));
  }
  structured.unshift({ type: 'text', text: parts.join(''), text_elements: elements });
  return structured;
}
