/**
 * `toTurnInput` builds its result in one pass; the algorithm it replaced (serialize with ranges,
 * then count UTF-8 bytes over the joined markdown) is kept here as the reference it must equal. The
 * same for `escapeText`, which copies unchanged runs as slices instead of character by character.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { TextElement, UserInputStrict } from '@wework/codex-protocol';
import { parse, sigilOf, toTurnInput, validateDocument, type ComposerDocument } from '../src/index.js';
import { serializeWithRanges } from '../src/Serialize.js';
import { structuredItemOf } from '../src/TurnInput.js';
import { escapeText, isSigil, utf8Length } from '../src/internal/escaping.js';
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
