/**
 * Composer content → the `input` of Codex `turn/start`, such that Codex finds exactly the user's
 * mentions and nothing else. Codex reads mentions not only from the structured `skill`/`mention`
 * items but out of the message text too, ignoring the markdown escape `\[`: a look-alike the user
 * typed as text (`\[$captain](/abs/SKILL.md)`, `$captain`, `\[@Forms](plugin://forms@market)`)
 * would inject a skill or activate an app or plugin. So the serialized markdown is sent as several
 * consecutive `text` items, cut right after each sigil of literal text that would open a mention
 * (the rule is in `internal/codexMentionRule.ts`). Codex scans each item on its own; the model
 * reads the items as one text, the user's words unchanged: joined, the items are exactly
 * `serialize(doc)`. Each real mention stays whole in one item, with its `text_elements` byte range
 * relative to that item; the structured items follow, one per mention, in document order.
 *
 * Every function here is pure.
 */
import type { TextElement, UserInputStrict } from '@wework/codex-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { normalize, validateDocument, type ComposerDocument, type InvalidMention, type Mention } from './Document.js';
import { parse } from './Parse.js';
import { serializeMention, sigilOf } from './Serialize.js';
import { structuredItemOf } from './TurnInput.js';
import { codexMentionCuts } from './internal/codexMentionRule.js';
import { escapeText, utf8Length } from './internal/escaping.js';
import { textElement, textItem } from './internal/turnInputItems.js';

/** One `text` item being built. */
interface TextItem {
  text: string;
  readonly elements: TextElement[];
}

function documentToCodexInput(doc: ComposerDocument): UserInputStrict[] {
  const segments = normalize(doc);
  const items: TextItem[] = [{ text: '', elements: [] }];
  const mentions: Mention[] = [];
  segments.forEach((segment, index) => {
    let item = items[items.length - 1] as TextItem;
    if (segment._tag === 'Mention') {
      const part = serializeMention(segment);
      const start = utf8Length(item.text);
      item.elements.push(textElement(start, start + utf8Length(part), `${sigilOf(segment)}${segment.name}`));
      item.text += part;
      mentions.push(segment);
      return;
    }
    const part = escapeText(segment.text, segments[index + 1]?._tag === 'Mention');
    let from = 0;
    for (const cut of codexMentionCuts(part)) {
      item.text += part.slice(from, cut);
      item = { text: '', elements: [] };
      items.push(item);
      from = cut;
    }
    item.text += part.slice(from);
  });
  const texts: UserInputStrict[] = items.filter((item) => item.text !== '' || items.length === 1).map((item) => textItem(item.text, item.elements));
  return [...texts, ...mentions.map(structuredItemOf)];
}

/**
 * Builds `turn/start` input that Codex reads exactly as the user meant it: the markdown as
 * consecutive `text` items (joined, exactly `serialize(doc)`; cut where Codex would otherwise read a
 * mention out of literal text), then one structured item per real mention. Accepts a document or
 * markdown (parsed first); a document with a mention that would not read back fails with the first
 * {@link InvalidMention}.
 *
 * @example
 * toCodexTurnInput('Type \\[$captain](/s/SKILL.md) to get [$pdf](/s/pdf/SKILL.md)')
 * // right([
 * //   { type: 'text', text: 'Type \\[$', text_elements: [] },
 * //   { type: 'text', text: 'captain](/s/SKILL.md) to get [$pdf](/s/pdf/SKILL.md)',
 * //     text_elements: [{ byteRange: { start: 29, end: 52 }, placeholder: '$pdf' }] },
 * //   { type: 'skill', name: 'pdf', path: '/s/pdf/SKILL.md' },
 * // ])
 */
export function toCodexTurnInput(input: ComposerDocument | string): E.Either<InvalidMention, UserInputStrict[]> {
  const doc = typeof input === 'string' ? parse(input) : input;
  return E.map(documentToCodexInput)(validateDocument(doc));
}
