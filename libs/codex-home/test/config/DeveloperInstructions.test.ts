import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  composeDeveloperInstructions,
  mergeLegacyInstructions,
  ROUTING_BLOCK_BEGIN,
  ROUTING_BLOCK_END,
  splitDeveloperInstructions,
  userCopyOf,
  withRoutingInstructions,
} from '../../src/config/index.js';

const ROUTING = 'Open web pages in the Wework embedded browser; use the `browser` tool for them.';

/** Text built from pieces that make the block hard to find: both markers, the routing text, blank lines. */
const tricky = (routing: string): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof(fc.string(), fc.constantFrom(ROUTING_BLOCK_BEGIN, ROUTING_BLOCK_END, routing, '\n', '\n\n', ' ', `${ROUTING_BLOCK_BEGIN}\n`, `\n${ROUTING_BLOCK_END}`)), {
      maxLength: 8,
    })
    .map((parts) => parts.join(''));

const routingArbitrary = fc.oneof(fc.constant(ROUTING), fc.constant(''), tricky('x'));

describe('composeDeveloperInstructions / userCopyOf', () => {
  it('compose then userCopyOf gives the user copy back, whatever it contains', () => {
    fc.assert(
      fc.property(routingArbitrary.chain((routing) => fc.tuple(fc.constant(routing), tricky(routing))), ([routing, userCopy]) => {
        expect(userCopyOf(composeDeveloperInstructions(userCopy, routing), routing)).toBe(userCopy);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a block of an older routing text, and replaces it', () => {
    fc.assert(
      fc.property(tricky(ROUTING), routingArbitrary, routingArbitrary, (userCopy, older, current) => {
        const stored = composeDeveloperInstructions(userCopy, older);
        expect(userCopyOf(stored, current)).toBe(userCopy);
        expect(withRoutingInstructions(stored, current)).toBe(composeDeveloperInstructions(userCopy, current));
      }),
      { numRuns: 1000 },
    );
  });

  it('is a no-op to refresh a value that has the current block', () => {
    fc.assert(
      fc.property(tricky(ROUTING), (userCopy) => {
        const stored = composeDeveloperInstructions(userCopy, ROUTING);
        expect(withRoutingInstructions(stored, ROUTING)).toBe(stored);
      }),
    );
  });

  it('lays the value out as the copy, a blank line and the block', () => {
    expect(composeDeveloperInstructions('Answer in French.', ROUTING)).toBe(`Answer in French.\n\n${ROUTING_BLOCK_BEGIN}\n${ROUTING}\n${ROUTING_BLOCK_END}`);
    expect(composeDeveloperInstructions('', ROUTING)).toBe(`${ROUTING_BLOCK_BEGIN}\n${ROUTING}\n${ROUTING_BLOCK_END}`);
  });

  it('keeps the begin marker out of the routing text, so the block stays findable', () => {
    const routing = `see ${ROUTING_BLOCK_BEGIN.slice(0, 10)}${ROUTING_BLOCK_BEGIN}${ROUTING_BLOCK_BEGIN.slice(10)} and ${ROUTING_BLOCK_BEGIN}\nmore`;
    const composed = composeDeveloperInstructions('mine', routing);
    expect(composed.split(ROUTING_BLOCK_BEGIN)).toHaveLength(2);
    expect(userCopyOf(composed, routing)).toBe('mine');
  });

  it('treats a value without markers as the user copy, except an unmarked copy of the routing text at its end', () => {
    expect(userCopyOf(null, ROUTING)).toBe('');
    expect(userCopyOf('Be brief.', ROUTING)).toBe('Be brief.');
    expect(userCopyOf(ROUTING, ROUTING)).toBe('');
    expect(userCopyOf(`Be brief.\n\n${ROUTING}`, ROUTING)).toBe('Be brief.');
    expect(userCopyOf(`${ROUTING} and more`, ROUTING)).toBe(`${ROUTING} and more`);
  });

  it('tolerates blank lines after the end marker and a single line break before the block (edits by hand)', () => {
    expect(splitDeveloperInstructions(`Be brief.\n${ROUTING_BLOCK_BEGIN}\nold\n${ROUTING_BLOCK_END}\n\n`)).toEqual({ userCopy: 'Be brief.', routing: 'old' });
  });
});

describe('mergeLegacyInstructions', () => {
  it('appends after a blank line, before the routing block', () => {
    expect(mergeLegacyInstructions('Mine.', 'Legacy.')).toBe('Mine.\n\nLegacy.');
    expect(mergeLegacyInstructions('', 'Legacy.')).toBe('Legacy.');
    expect(mergeLegacyInstructions(composeDeveloperInstructions('Mine.', ROUTING), 'Legacy.')).toBe(composeDeveloperInstructions('Mine.\n\nLegacy.', ROUTING));
  });

  it('adds nothing when the copy already contains the legacy text', () => {
    expect(mergeLegacyInstructions('Mine. Legacy. More.', 'Legacy.')).toBeNull();
    expect(mergeLegacyInstructions(composeDeveloperInstructions('Legacy.', ROUTING), 'Legacy.')).toBeNull();
  });

  it('never loses either text', () => {
    fc.assert(
      fc.property(tricky(ROUTING), tricky(ROUTING), fc.string({ minLength: 1 }), (userCopy, developerTail, legacy) => {
        const developer = `${userCopy}${developerTail}`;
        const merged = mergeLegacyInstructions(developer, legacy);
        const copy = splitDeveloperInstructions(merged ?? developer).userCopy;
        expect(copy).toContain(legacy);
        expect(merged ?? developer).toContain(splitDeveloperInstructions(developer).userCopy);
      }),
    );
  });
});
