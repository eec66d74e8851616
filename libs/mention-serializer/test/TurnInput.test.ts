import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { app, plugin, serialize, skill, text, toTurnInput } from '../src/index.js';
import { serializeMention } from '../src/Serialize.js';
import { documentArbitrary, trickyStringArbitrary } from '../src/testing.js';

describe('toTurnInput', () => {
  test('one text item with byte ranges, then one structured item per mention', () => {
    const result = toTurnInput([text('é '), skill('pdf', '/s/pdf/SKILL.md'), text(' 😀 '), app('Drive', 'c1'), plugin('Sites', 'wegent-sites', 'wegent')]);
    expect(result).toEqual(
      E.right([
        {
          type: 'text',
          text: 'é [$pdf](/s/pdf/SKILL.md) 😀 [$Drive](app://c1)[@Sites](plugin://wegent-sites@wegent)',
          text_elements: [
            { byteRange: { start: 3, end: 26 }, placeholder: '$pdf' },
            { byteRange: { start: 32, end: 50 }, placeholder: '$Drive' },
            { byteRange: { start: 50, end: 88 }, placeholder: '@Sites' },
          ],
        },
        { type: 'skill', name: 'pdf', path: '/s/pdf/SKILL.md' },
        { type: 'mention', name: 'Drive', path: 'app://c1' },
        { type: 'mention', name: 'Sites', path: 'plugin://wegent-sites@wegent' },
      ]),
    );
  });

  test('accepts markdown, including the $ plugin sigil, and re-serializes it canonically', () => {
    expect(toTurnInput('[$Sites](plugin://s@w) go')).toEqual(
      E.right([
        { type: 'text', text: '[@Sites](plugin://s@w) go', text_elements: [{ byteRange: { start: 0, end: 22 }, placeholder: '@Sites' }] },
        { type: 'mention', name: 'Sites', path: 'plugin://s@w' },
      ]),
    );
  });

  test('rejects a document whose mention would not read back', () => {
    expect(toTurnInput([text('x'), app('', 'c')])).toEqual(E.left({ _tag: 'EmptyName', index: 1 }));
    expect(toTurnInput([skill('s', 'relative/SKILL.md')])).toEqual(E.left({ _tag: 'SkillPathNotAbsolute', index: 0, path: 'relative/SKILL.md' }));
    expect(toTurnInput([plugin('p', 'x', '')])).toEqual(E.left({ _tag: 'EmptyTarget', index: 0, field: 'marketplaceName' }));
  });

  test('byte ranges slice exactly each mention in the UTF-8 text, in order', () => {
    fc.assert(
      fc.property(documentArbitrary, (doc) => {
        const result = toTurnInput(doc);
        if (E.isLeft(result)) throw new Error('valid documents always convert');
        const [first, ...structured] = result.right;
        if (first?.type !== 'text') throw new Error('first item is the text');
        expect(first.text).toBe(serialize(doc));
        const bytes = Buffer.from(first.text, 'utf8');
        const mentions = doc.filter((s) => s._tag === 'Mention');
        expect(first.text_elements).toHaveLength(mentions.length);
        expect(structured).toHaveLength(mentions.length);
        first.text_elements.forEach((element, index) => {
          const mention = mentions[index];
          if (mention === undefined) throw new Error('as many elements as mentions');
          expect(bytes.subarray(element.byteRange.start, element.byteRange.end).equals(Buffer.from(serializeMention(mention), 'utf8'))).toBe(true);
          expect(structured[index]?.type).toBe(mention.kind === 'skill' ? 'skill' : 'mention');
          expect(structured[index]).toMatchObject({ name: mention.name });
        });
      }),
      { numRuns: 400 },
    );
  });

  test('never throws on arbitrary markdown', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), trickyStringArbitrary), (markdown) => {
        expect(E.isRight(toTurnInput(markdown))).toBe(true);
      }),
    );
  });
});
