/**
 * The composer's model: a mention is one unit, so the caret never lands inside one (display offsets
 * inside a label snap out of it); Backspace after a mention removes it whole and nothing else; typing
 * keeps every mention; the markdown of a draft parses back to the same draft, and a pasted markdown
 * serializes back to itself; a copied slice is exactly what lies between the two carets; a trigger
 * typed after white space is found and accepting a mention replaces it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize, parse, plugin, serialize, skill, text, type ComposerDocument } from '@wework/mention-serializer';
import { documentArbitrary, mentionArbitrary, trickyStringArbitrary } from '@wework/mention-serializer/testing';
import {
  acceptMention,
  deleteBackward,
  deleteForward,
  displayOffsetOfUnit,
  draftOfMarkdown,
  insertText,
  labelOf,
  lengthOf,
  markdownOf,
  mentionsOf,
  mentionUnits,
  moveCaret,
  replaceRange,
  sliceDoc,
  triggerAt,
  unitOfDisplayOffset,
  type Draft,
} from '../src/ComposerState.js';

const draftArbitrary: fc.Arbitrary<Draft> = documentArbitrary.chain((raw) => {
  const doc = normalize(raw);
  return fc.integer({ min: 0, max: lengthOf(doc) }).map((caret) => ({ doc, caret }));
});

/** The display ranges `(start, end)` strictly inside which a caret would be inside a mention's label. */
function labelRanges(doc: ComposerDocument): ReadonlyArray<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  let display = 0;
  for (const s of doc) {
    const width = s._tag === 'Text' ? s.text.length : labelOf(s).length;
    if (s._tag === 'Mention') out.push([display, display + width]);
    display += width;
  }
  return out;
}

describe('the composer model', () => {
  it('snaps every display offset out of a mention: the caret never lands inside one', () => {
    fc.assert(
      fc.property(documentArbitrary.map(normalize), fc.nat(400), fc.constantFrom(-1 as const, 0 as const, 1 as const), (doc, offset, bias) => {
        const unit = unitOfDisplayOffset(doc, offset, bias);
        expect(unit).toBeGreaterThanOrEqual(0);
        expect(unit).toBeLessThanOrEqual(lengthOf(doc));
        const shown = displayOffsetOfUnit(doc, unit);
        for (const [start, end] of labelRanges(doc)) expect(shown > start && shown < end).toBe(false);
        // A boundary maps back to itself.
        expect(unitOfDisplayOffset(doc, shown, bias)).toBe(unit);
      }),
    );
  });

  it('steps over a mention whole with the arrow keys', () => {
    fc.assert(
      fc.property(draftArbitrary, fc.constantFrom(-1 as const, 1 as const), (draft, direction) => {
        const moved = moveCaret(draft, direction);
        expect(Math.abs(moved.caret - draft.caret)).toBeLessThanOrEqual(1);
        expect(moved.doc).toBe(draft.doc);
        for (const { unit } of mentionUnits(draft.doc)) {
          if (draft.caret === unit + 1 && direction === -1) expect(moved.caret).toBe(unit);
          if (draft.caret === unit && direction === 1) expect(moved.caret).toBe(unit + 1);
        }
      }),
    );
  });

  it('removes a whole mention with Backspace after it, and nothing else', () => {
    fc.assert(
      fc.property(documentArbitrary.map(normalize), mentionArbitrary, documentArbitrary.map(normalize), (before, mention, after) => {
        const doc = normalize([...before, mention, ...after]);
        const caret = lengthOf(before) + 1;
        const next = deleteBackward({ doc, caret });
        expect(next.caret).toBe(lengthOf(before));
        expect(markdownOf(next.doc)).toBe(markdownOf(normalize([...before, ...after])));
        const forward = deleteForward({ doc, caret: lengthOf(before) });
        expect(markdownOf(forward.doc)).toBe(markdownOf(next.doc));
      }),
    );
  });

  it('keeps every mention while typing, and puts the caret after what was typed', () => {
    fc.assert(
      fc.property(draftArbitrary, trickyStringArbitrary, (draft, typed) => {
        const next = insertText(draft, typed);
        expect(mentionsOf(next.doc)).toEqual(mentionsOf(draft.doc));
        expect(next.caret).toBe(draft.caret + typed.length);
        expect(lengthOf(next.doc)).toBe(lengthOf(draft.doc) + typed.length);
      }),
    );
  });

  it('round-trips: the markdown of a draft parses back to it, and parsed markdown serializes back to itself', () => {
    fc.assert(
      fc.property(documentArbitrary.map(normalize), (doc) => {
        expect(draftOfMarkdown(markdownOf(doc)).doc).toEqual(doc);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (markdown) => {
        const doc = normalize(parse(markdown));
        expect(parse(serialize(doc))).toEqual(doc);
      }),
    );
  });

  it('copies exactly what lies between two carets; the slices put together are the document', () => {
    fc.assert(
      fc.property(documentArbitrary.map(normalize), fc.nat(), fc.nat(), (doc, a, b) => {
        const [start, end] = [a % (lengthOf(doc) + 1), b % (lengthOf(doc) + 1)].sort((x, y) => x - y) as [number, number];
        const middle = sliceDoc(doc, start, end);
        expect(lengthOf(middle)).toBe(end - start);
        expect(normalize([...sliceDoc(doc, 0, start), ...middle, ...sliceDoc(doc, end, lengthOf(doc))])).toEqual(doc);
        expect(replaceRange(doc, start, end, middle).doc).toEqual(doc);
      }),
    );
  });

  it('finds a trigger typed after white space, and accepting a mention replaces it with the mention and a space', () => {
    fc.assert(
      fc.property(documentArbitrary.map(normalize), fc.constantFrom('$' as const, '@' as const), fc.stringMatching(/^[a-z:-]{0,8}$/), mentionArbitrary, (before, sigil, query, mention) => {
        const typed = insertText({ doc: before, caret: lengthOf(before) }, ` ${sigil}${query}`);
        const trigger = triggerAt(typed);
        expect(trigger).toEqual({ sigil, query, start: lengthOf(before) + 1 });
        const accepted = acceptMention(typed, mention, trigger);
        expect(accepted.doc).toEqual(normalize([...before, text(' '), mention, text(' ')]));
        expect(accepted.caret).toBe(lengthOf(accepted.doc));
      }),
    );
  });

  it('an example: a skill and a plugin typed in a sentence', () => {
    const greet = skill('demo-plugin:greet', '/p/skills/greet/SKILL.md');
    const demo = plugin('Demo', 'demo-plugin', 'local-market');
    let draft = insertText({ doc: [], caret: 0 }, 'Use $gr');
    draft = acceptMention(draft, greet, triggerAt(draft));
    draft = insertText(draft, 'with @De');
    draft = acceptMention(draft, demo, triggerAt(draft));
    expect(markdownOf(draft.doc)).toBe('Use [$demo-plugin:greet](/p/skills/greet/SKILL.md) with [@Demo](plugin://demo-plugin@local-market) ');
    expect(triggerAt(insertText({ doc: [], caret: 0 }, 'price $5 a'))).toBeNull();
    expect(triggerAt(insertText({ doc: [], caret: 0 }, 'mail a@b'))).toBeNull();
  });
});
