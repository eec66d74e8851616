import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readMention, readMentionByLoop, type MentionSlot } from '../src/Parse.js';

/** Pieces around the edges of the one-expression reading: its character classes' bounds and what ends it. */
const pieces = [
  '[$',
  '[@',
  '[',
  ']',
  '](',
  '(',
  ')',
  '\\',
  '\\]',
  'x',
  'Google Drive',
  'plugin://',
  'app://',
  'skill://',
  '/s/SKILL.md',
  'C:\\',
  '@',
  '%',
  '%40',
  ' ',
  '\t',
  '\x7f',
  '!',
  "'",
  '*',
  '~',
  '^',
  '\u0080',
  '\u0085',
  '\u00a0',
  '\u3000',
  '\ufeff',
  'é',
  '数',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
];

const piecesOf = (maxLength: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));

/** Plain text around one piece or none: a part of a link that is valid but for at most that piece. */
const aroundOnePiece = (before: string[], after: string[]): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...before), fc.oneof(fc.constant(''), fc.constantFrom(...pieces)), fc.constantFrom(...after)).map((parts) => parts.join(''));

/** `[` sigil label `](` scheme target `)`, each part plain or holding one piece. */
const linkShaped = fc
  .tuple(
    fc.constantFrom('[$', '[@'),
    aroundOnePiece(['x', 'Google Drive', ''], ['', 'y']),
    fc.constantFrom('](', '](', ']', '] ('),
    fc.constantFrom('plugin://', 'app://', 'skill://', '/', 'C:\\', ''),
    aroundOnePiece(['x', 'x@y', ''], ['', '@z', '/SKILL.md']),
    fc.constantFrom(')', ')', ''),
  )
  .map((parts) => parts.join(''));

const candidates = fc.oneof(
  linkShaped,
  fc.array(fc.oneof(linkShaped, piecesOf(2)), { maxLength: 4 }).map((parts) => parts.join('')),
  piecesOf(12),
  fc.string({ unit: 'binary' }).map((rest) => `[$${rest}`),
  fc.string({ unit: 'grapheme' }).map((rest) => `[@${rest}`),
);

const read = (reader: typeof readMention, s: string, start: number) => {
  const slot: MentionSlot = { mention: null, ascii: false, literal: false };
  const end = reader(s, start, slot);
  return end === -1 ? { end } : { end, ...slot };
};

describe('readMention', () => {
  test('reads every candidate as the character loop does', () => {
    fc.assert(
      fc.property(candidates, (s) => {
        for (let start = s.indexOf('['); start !== -1; start = s.indexOf('[', start + 1)) {
          const sigil = s.charCodeAt(start + 1);
          if (sigil !== 0x24 && sigil !== 0x40) continue;
          expect(read(readMention, s, start)).toEqual(read(readMentionByLoop, s, start));
        }
      }),
      { numRuns: 10000 },
    );
  });

  test('reads the common mentions, and leaves what the loop refuses', () => {
    const links = ['[$pdf](/skills/pdf/SKILL.md)', '[$Google Drive](app://drive)', '[@Sites](plugin://sites@wegent)', '[$a b](app://x y)', '[$é](app://x)'];
    const s = links.join('');
    const starts = links.map((_, k) => links.slice(0, k).join('').length);
    expect(starts.map((start) => read(readMention, s, start))).toEqual(starts.map((start) => read(readMentionByLoop, s, start)));
    expect(read(readMention, s, starts[1] ?? 0)).toEqual({
      end: starts[2],
      mention: {
        _tag: 'Mention',
        kind: 'app',
        name: 'Google Drive',
        connectorId: 'drive',
      },
      ascii: true,
      literal: true,
    });
    expect(read(readMention, s, starts[3] ?? 0).end).toBe(-1);
    expect(read(readMention, s, starts[4] ?? 0)).toMatchObject({
      end: s.length,
      ascii: false,
      literal: true,
    });
  });
});
