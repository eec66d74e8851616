/**
 * `toTurnInput` builds its result in one pass; the algorithm it replaced (serialize with ranges,
 * then count UTF-8 bytes over the joined markdown) is kept here as the reference it must equal. The
 * same for `escapeText`, which copies unchanged runs as slices instead of character by character.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { TextElement, UserInputStrict } from '@wework/codex-protocol';
import { parse, serializeWithRanges, sigilOf, toCodexTurnInput, toTurnInput, validateDocument, type ComposerDocument } from '../src/index.js';
import { scan } from '../src/Parse.js';
import { structuredItemOf } from '../src/TurnInput.js';
import { escapeText, isSigil, utf8Length, utf8LengthByLoop } from '../src/internal/escaping.js';
import { documentArbitrary, trickyStringArbitrary } from '../src/testing.js';

function referenceEscapeText(value: string, followedByMention: boolean): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c === '\\') {
      let j = i;
      while (value[j] === '\\') j++;
      const run = j - i;
      const next = value[j];
      const needsEscape = run > 1 || next === '[' || (next === undefined && followedByMention);
      out += needsEscape ? '\\'.repeat(run * 2) : '\\';
      i = j;
      continue;
    }
    if (c === '[' && isSigil(value[i + 1])) {
      out += '\\[';
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}


function referenceTurnInput(input: ComposerDocument | string): E.Either<unknown, UserInputStrict[]> {
  const doc = typeof input === 'string' ? parse(input) : input;
  return E.map((valid: ComposerDocument) => {
    const { markdown, mentions } = serializeWithRanges(valid);
    const elements: TextElement[] = [];
    let offset = 0;
    let bytes = 0;
    for (const { mention, source } of mentions) {
      bytes += utf8Length(markdown, offset, source.start);
      const length = utf8Length(markdown, source.start, source.end);
      elements.push({ byteRange: { start: bytes, end: bytes + length }, placeholder: `${sigilOf(mention)}${mention.name}` });
      bytes += length;
      offset = source.end;
    }
    return [{ type: 'text', text: markdown, text_elements: elements }, ...mentions.map(({ mention }) => structuredItemOf(mention))] as UserInputStrict[];
  })(validateDocument(doc));
}

describe('toTurnInput equals the reference algorithm', () => {
  test('on random documents (valid or not)', () => {
    fc.assert(
      fc.property(documentArbitrary, (doc) => {
        expect(toTurnInput(doc)).toEqual(referenceTurnInput(doc));
      }),
      { numRuns: 500 },
    );
  });

  test('on random markdown, including serialized documents with text around them', () => {
    const markdown = fc.oneof(
      trickyStringArbitrary,
      fc.tuple(trickyStringArbitrary, documentArbitrary, trickyStringArbitrary).map(([before, doc, after]) => {
        const valid = validateDocument(doc);
        return before + (E.isRight(valid) ? serializeWithRanges(valid.right).markdown : '') + after;
      }),
    );
    fc.assert(
      fc.property(markdown, (value) => {
        expect(toTurnInput(value)).toEqual(referenceTurnInput(value));
      }),
      { numRuns: 500 },
    );
  });
});

describe('toTurnInput builds plain objects', () => {
  test('equal to the reference literals with keys in the same order (toEqual ignores key order, JSON does not)', () => {
    // The items come from constructor functions of their own (src/internal/turnInputItems.ts).
    fc.assert(
      fc.property(fc.oneof(documentArbitrary, trickyStringArbitrary), (input) => {
        expect(JSON.stringify(toTurnInput(input))).toBe(JSON.stringify(referenceTurnInput(input)));
      }),
      { numRuns: 300 },
    );
    const markdown = 'x [$a](/s/SKILL.md) [$b](app://c) [@d](plugin://e@f)';
    for (const result of [toTurnInput(markdown), toTurnInput(parse(markdown)), toCodexTurnInput(markdown)]) {
      if (E.isLeft(result) || result.right[0]?.type !== 'text') throw new Error('markdown converts to a text item first');
      const objects = [...result.right, ...result.right[0].text_elements.flatMap((element) => [element, element.byteRange])];
      expect(objects).toHaveLength(4 + 3 * 2);
      for (const object of objects) {
        expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
        expect(object.constructor).toBe(Object);
      }
    }
  });
});

describe('escapeText equals the reference algorithm', () => {
  test('on random text, followed by a mention or not', () => {
    const escapable = fc.string({ unit: fc.constantFrom('\\', '[', '$', '@', ']', 'a', 'é', '😀'), maxLength: 30 });
    fc.assert(
      fc.property(fc.oneof(trickyStringArbitrary, escapable), fc.boolean(), (value, followed) => {
        expect(escapeText(value, followed)).toBe(referenceEscapeText(value, followed));
      }),
      { numRuns: 1000 },
    );
  });
});

/** Mention markdown in every form the parser accepts, canonical or not, with text around it. */
const mentionFormArbitrary: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('$', '@'),
    fc.oneof(
      trickyStringArbitrary,
      fc.constantFrom('pdf', 'Google Drive', 'a\\]b', 'x\\\\', 'é', '\\[y', 'a\\b', 'c\u0090'),
    ),
    fc.constantFrom(
      '/s/pdf/SKILL.md',
      '/s/pdf/skill.md',
      'skill:///s/pdf/SKILL.md',
      'skill:///s/other',
      'skill://relative',
      'C:\\skills\\pdf\\SKILL.md',
      '\\\\server\\share\\SKILL.md',
      '/s/%70df/SKILL.md',
      '/s/caf\u00e9/SKILL.md',
      '/s/c\u0090/SKILL.md',
      'app://connector_1',
      'app://a%20b',
      'app://a%ZZ',
      'app://c\u0090',
      'app://',
      'plugin://sites@wegent',
      'plugin://si%40tes@we@gent',
      'plugin://p@m%25',
      'plugin://@m',
      'plugin://p@',
    ),
  )
  .map(([sigil, label, target]) => `[${sigil}${label}](${target})`);

describe('toTurnInput of markdown equals toTurnInput of its parsed document', () => {
  test('on markdown mixing canonical and non-canonical mention forms with tricky text', () => {
    const markdown = fc
      .array(fc.oneof(trickyStringArbitrary, mentionFormArbitrary, fc.constantFrom('[docs](https://a.b) ', '数据 ', '😀', '\\', '%')), { maxLength: 10 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(markdown, (value) => {
        const expected = toTurnInput(parse(value));
        expect(toTurnInput(value)).toEqual(expected);
        expect(toTurnInput(value)).toEqual(referenceTurnInput(value));
      }),
      { numRuns: 1000 },
    );
  });

  test('keeps canonical markdown as it is, long text runs included', () => {
    const long = 'prose with café and 数据 '.repeat(5000);
    const markdown = `${long}[$pdf](/s/pdf/SKILL.md)${long}[@Sites](plugin://s@w) ${long}`;
    const result = toTurnInput(markdown);
    expect(result).toEqual(toTurnInput(parse(markdown)));
    if (E.isLeft(result) || result.right[0]?.type !== 'text') throw new Error('markdown converts to a text item first');
    expect(result.right[0].text).toBe(markdown);
    const bytes = Buffer.from(markdown, 'utf8');
    const [first, second] = result.right[0].text_elements;
    expect(bytes.subarray(first?.byteRange.start, first?.byteRange.end).toString('utf8')).toBe('[$pdf](/s/pdf/SKILL.md)');
    expect(bytes.subarray(second?.byteRange.start, second?.byteRange.end).toString('utf8')).toBe('[@Sites](plugin://s@w)');
  });
});

/** Runs `check` over markdown joining tricky text, mention forms and `extras` (each test's own cases). */
function forScannedMarkdown(extras: [string, ...string[]], check: (markdown: string) => void): void {
  const markdown = fc
    .array(fc.oneof(trickyStringArbitrary, mentionFormArbitrary, fc.constantFrom(...extras)), { maxLength: 8 })
    .map((parts) => parts.join(''));
  fc.assert(fc.property(markdown, check), { numRuns: 1000 });
}

describe('the scan', () => {
  test('reports a mention as ASCII exactly when its source is, so its UTF-8 length is its length', () => {
    forScannedMarkdown(['[$数据](/s/SKILL.md)', '[@é](plugin://p@m)', '[$a](app://数)'], (value) =>
      scan(
        value,
        () => undefined,
        (_mention, start, end, ascii) => expect(ascii).toBe([...value.slice(start, end)].every((c) => c.charCodeAt(0) < 0x80)),
      ),
    );
  });

  test('reports a text run as plain exactly when its source holds no backslash and no [ before a sigil', () => {
    forScannedMarkdown(['\\', '\\[', '[$', '[@x', '[$a](nowhere)', '[x]', 'a\\b'], (value) =>
      scan(
        value,
        (text, start, end, plain) => {
          const source = value.slice(start, end);
          expect(plain).toBe(!source.includes('\\') && !/\[[$@]/.test(source));
          if (plain) expect(text).toBe(source);
        },
        () => undefined,
      ),
    );
  });

  test('reports a mention as literal exactly when its label holds no backslash and its target no %', () => {
    forScannedMarkdown(['[$a%](app://b)', '[$a\\b](app://c)', '[@p](plugin://a@b%)'], (value) =>
      scan(
        value,
        () => undefined,
        (_mention, start, end, _ascii, literal) => {
          const source = value.slice(start, end);
          // A target holds no raw `]` or `(`, so the last `](` ends the label.
          const labelEnd = source.lastIndexOf('](');
          const label = source.slice(2, labelEnd);
          const target = source.slice(labelEnd + 2, -1);
          expect(literal).toBe(!label.includes('\\') && !target.includes('%'));
        },
      ),
    );
  });
});

describe('utf8Length', () => {
  test('equals the UTF-8 length Buffer writes, for any range (lone surrogates as U+FFFD), short or long', () => {
    const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('a'.repeat(60_000), 'é😀\ud800x'.repeat(20_000)));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 4 }), fc.nat(), fc.nat(), (parts, a, b) => {
        const value = parts.join('');
        const from = value.length === 0 ? 0 : a % (value.length + 1);
        const to = from + (value.length - from === 0 ? 0 : b % (value.length - from + 1));
        expect(utf8Length(value, from, to)).toBe(Buffer.byteLength(value.slice(from, to), 'utf8'));
        expect(utf8LengthByLoop(value, from, to)).toBe(Buffer.byteLength(value.slice(from, to), 'utf8'));
      }),
      { numRuns: 300 },
    );
  });
});
