/**
 * `toCodexTurnInput`: literal text stays literal for Codex (it finds no mention the user did not
 * make), the user's words reach the model unchanged, and the real mentions are exactly as in
 * `toTurnInput`.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { UserInput } from '@wework/codex-protocol';
import { app, plugin, serialize, skill, text, toCodexTurnInput, toTurnInput, type ComposerDocument } from '../src/index.js';
import { serializeMention } from '../src/Serialize.js';
import { documentArbitrary, mentionArbitrary, trickyStringArbitrary } from '../src/testing.js';
import { codexMentionSpans } from './codexMentionOracle.js';

type TextInput = Extract<UserInput, { type: 'text' }>;
const textsOf = (input: ReadonlyArray<UserInput>): TextInput[] => input.filter((item): item is TextInput => item.type === 'text');
const inputOf = (doc: ComposerDocument | string): UserInput[] => {
  const result = toCodexTurnInput(doc);
  if (E.isLeft(result)) throw new Error('valid documents always convert');
  return result.right;
};

/** Text that looks like mentions Codex would act on. */
const lookAlikes = [
  '[$captain](/abs/path/SKILL.md)',
  '\\[$captain](/abs/path/SKILL.md)',
  '$captain',
  '[$Drive](app://connector_1)',
  '[@Forms](plugin://forms@local-market)',
  '[$Forms] (plugin://forms@m)',
  '[$a:b](skill:///x/SKILL.md)',
  '$',
  '[@',
  'me@example.com',
];
const lookAlikeTextArbitrary = fc
  .array(fc.oneof(trickyStringArbitrary, fc.constantFrom(...lookAlikes)), { maxLength: 6 })
  .map((parts) => text(parts.join('')));
const lookAlikeDocumentArbitrary: fc.Arbitrary<ComposerDocument> = fc.array(fc.oneof({ weight: 3, arbitrary: lookAlikeTextArbitrary }, { weight: 1, arbitrary: mentionArbitrary }), {
  maxLength: 8,
});

describe('toCodexTurnInput', () => {
  test('an escaped look-alike is cut after its sigil; the real mention stays whole with its range in its item', () => {
    expect(inputOf('Type \\[$captain](/s/SKILL.md) to get [$pdf](/s/pdf/SKILL.md)')).toEqual([
      { type: 'text', text: 'Type \\[$', text_elements: [] },
      { type: 'text', text: 'captain](/s/SKILL.md) to get [$pdf](/s/pdf/SKILL.md)', text_elements: [{ byteRange: { start: 29, end: 52 }, placeholder: '$pdf' }] },
      { type: 'skill', name: 'pdf', path: '/s/pdf/SKILL.md' },
    ]);
    expect(inputOf([text('run $deploy or [@Forms](plugin://f@m), mail me@x.com')]).map((item) => (item.type === 'text' ? item.text : item.type))).toEqual([
      'run $',
      'deploy or \\[@',
      'Forms](plugin://f@m), mail me@x.com',
    ]);
  });

  test('without look-alikes it is exactly toTurnInput', () => {
    const doc = [text('é '), skill('pdf', '/s/pdf/SKILL.md'), text(' 😀 '), app('Drive', 'c1'), plugin('Sites', 'wegent-sites', 'wegent'), text(' costs 5$ ($ is not a name)')];
    expect(toCodexTurnInput(doc)).toEqual(toTurnInput(doc));
    expect(toCodexTurnInput('')).toEqual(toTurnInput(''));
  });

  test('Codex finds no mention in the text except at the real mentions (any text, look-alikes included)', () => {
    fc.assert(
      fc.property(fc.oneof(lookAlikeDocumentArbitrary, documentArbitrary), (doc) => {
        for (const item of textsOf(inputOf(doc))) {
          for (const [start, end] of codexMentionSpans(item.text)) {
            const inside = item.text_elements.some((element) => element.byteRange.start <= start && end <= element.byteRange.end);
            expect(inside, `${JSON.stringify(item.text)} [${start}, ${end})`).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  test('the user words are unchanged: joined, the text items are serialize(doc); each real mention is whole in its item', () => {
    fc.assert(
      fc.property(fc.oneof(lookAlikeDocumentArbitrary, documentArbitrary), (doc) => {
        const input = inputOf(doc);
        const texts = textsOf(input);
        expect(texts.map((item) => item.text).join('')).toBe(serialize(doc));
        const mentions = doc.filter((segment) => segment._tag === 'Mention');
        const elements = texts.flatMap((item) => item.text_elements.map((element) => ({ item, element })));
        expect(elements).toHaveLength(mentions.length);
        elements.forEach(({ item, element }, index) => {
          const mention = mentions[index];
          if (mention === undefined) throw new Error('one element per mention');
          expect(Buffer.from(item.text, 'utf8').subarray(element.byteRange.start, element.byteRange.end).toString('utf8')).toBe(serializeMention(mention));
        });
        const baseline = toTurnInput(doc);
        if (E.isLeft(baseline)) throw new Error('valid documents always convert');
        expect(input.filter((item) => item.type !== 'text')).toEqual(baseline.right.slice(1));
        expect(texts.every((item) => item.text !== '') || texts.length === 1).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test('toTurnInput, by contrast, leaves look-alikes Codex would act on (why the executor sends toCodexTurnInput)', () => {
    const plain = toTurnInput([text('[$captain](/abs/path/SKILL.md)')]);
    if (E.isLeft(plain)) throw new Error('converts');
    const [first] = textsOf(plain.right);
    expect(first?.text).toBe('\\[$captain](/abs/path/SKILL.md)');
    expect(codexMentionSpans(first?.text ?? '')).toHaveLength(1);
  });
});
