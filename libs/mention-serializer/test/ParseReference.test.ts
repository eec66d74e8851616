import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { app, parse, plugin, serialize, skill, text, tokenize } from '../src/index.js';
import { isAbsolutePath, isSkillFilePath } from '../src/Document.js';
import { documentArbitrary, trickyStringArbitrary } from '../src/testing.js';
import { referenceIsAbsolutePath, referenceIsSkillFilePath, referenceParse, referenceTokenize } from './referenceParser.js';

/** Pieces that sit on the parser's edges: prefixes, separators, escapes, `%`, `@`, Unicode spaces and case. */
const edgePieces = [
  '[',
  '$',
  '@',
  ']',
  '(',
  ')',
  '\\',
  'app://',
  'plugin://',
  'skill://',
  '/SKILL.md',
  'S\u212AILL.md',
  '/',
  '%',
  '%40',
  ' ',
  '\u3000',
  '\u0085',
  '\u00a0',
  'x',
  'é',
];

const piecesArbitrary = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...edgePieces), { maxLength }).map((pieces) => pieces.join(''));

/** Something shaped like a mention (`[` sigil label `](` scheme target `)`), often almost valid. */
const candidateArbitrary = fc
  .tuple(
    fc.constantFrom('$', '@', ''),
    fc
      .array(fc.constantFrom('x', 'x', '\\', '[', ']', ' ', 'é'), {
        maxLength: 4,
      })
      .map((pieces) => pieces.join('')),
    fc.constantFrom('](', '](', ']', '] ('),
    fc.constantFrom('plugin://', 'plugin://', 'app://', 'skill://', '/', 'C:\\', ''),
    fc
      .array(fc.constantFrom('x', 'x', '@', '@', '\x7f', '%', '%40', '/', 'SKILL.md', 'sKill.md', ' ', '(', '　', '', 'é'), { maxLength: 5 })
      .map((pieces) => pieces.join('')),
    fc.constantFrom(')', ')', ''),
  )
  .map(([sigil, label, middle, scheme, target, close]) => `[${sigil}${label}${middle}${scheme}${target}${close}`);

const markdownArbitrary = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.oneof({ weight: 3, arbitrary: candidateArbitrary }, { weight: 1, arbitrary: piecesArbitrary(3) }), { maxLength: 6 })
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: trickyStringArbitrary },
  {
    weight: 1,
    arbitrary: fc
      .tuple(trickyStringArbitrary, documentArbitrary, trickyStringArbitrary)
      .map(([before, doc, after]) => before + serialize(doc) + after),
  },
  { weight: 1, arbitrary: piecesArbitrary(40) },
);

describe('the parser agrees with its reference model', () => {
  test('parse and tokenize give the same result on any input', () => {
    fc.assert(
      fc.property(markdownArbitrary, (markdown) => {
        expect(parse(markdown)).toEqual(referenceParse(markdown));
        expect(tokenize(markdown)).toEqual(referenceTokenize(markdown));
      }),
      { numRuns: 1000 },
    );
  });

  test('parse and tokenize build the same objects as the public constructors, keys in the same order', () => {
    // The parser builds its segments with constructor functions of its own (src/internal/parsedSegments.ts);
    // the reference model uses text, skill, app and plugin. toEqual ignores key order, JSON does not.
    fc.assert(
      fc.property(markdownArbitrary, (markdown) => {
        expect(JSON.stringify(parse(markdown))).toBe(JSON.stringify(referenceParse(markdown)));
        expect(JSON.stringify(tokenize(markdown))).toBe(JSON.stringify(referenceTokenize(markdown)));
      }),
      { numRuns: 1000 },
    );
    const mentions = parse('[$a](/s/SKILL.md) [$b](app://c) [@d](plugin://e@f)').filter((segment) => segment._tag === 'Mention');
    expect(mentions.map((mention) => Object.keys(mention))).toEqual([Object.keys(skill('a', '/s/SKILL.md')), Object.keys(app('b', 'c')), Object.keys(plugin('d', 'e', 'f'))]);
    expect(Object.keys(parse('x')[0] ?? {})).toEqual(Object.keys(text('x')));
    for (const segment of [...parse('x [$a](/s/SKILL.md) [$b](app://c) [@d](plugin://e@f)'), ...tokenize('[$a](/s/SKILL.md)').map((token) => (token._tag === 'Mention' ? token.mention : token))]) {
      expect(Object.getPrototypeOf(segment)).toBe(Object.prototype);
      expect(segment.constructor).toBe(Object);
    }
  });

  test('isSkillFilePath and isAbsolutePath agree with the plain definitions, Unicode case mappings included', () => {
    const piece = fc.constantFrom(
      '/',
      '\\',
      'C:',
      'c:/',
      'z:\\',
      '1:/',
      '\\\\',
      'SKILL.md',
      'skill.md',
      'S\u212AILL.md',
      'SK\u0130LL.md',
      '\u017Fkill.md',
      'sKiLl.Md',
      'x',
      '.',
      'md',
      'é',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join('')),
          fc.string({ unit: 'binary' }),
        ),
        (path) => {
          expect(isSkillFilePath(path)).toBe(referenceIsSkillFilePath(path));
          expect(isAbsolutePath(path)).toBe(referenceIsAbsolutePath(path));
        },
      ),
      { numRuns: 1000 },
    );
    expect(isSkillFilePath('/S\u212AILL.md')).toBe(true);
  });
});
