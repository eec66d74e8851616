import * as t from 'io-ts';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { isKnownLiteral, isUnknownVariant, openKeyof, openUnion, type UnknownLiteral, type UnknownVariant } from '../src/OpenCodecs.js';

const Status = openKeyof({ active: null, idle: null }, 'Status');
const Item = openUnion('type', ['agentMessage', 'plan'], [
  t.type({ type: t.literal('agentMessage'), id: t.string, text: t.string }),
  t.type({ type: t.literal('plan'), id: t.string, steps: t.array(t.string) }),
], 'Item');

describe('openKeyof', () => {
  test('decodes known and unknown literals, rejects what is not a string, encodes back what it read', () => {
    expect(Status.decode('idle')).toEqual({ _tag: 'Right', right: 'idle' });
    const unknown = Status.decode('hibernating');
    expect(unknown).toEqual({ _tag: 'Right', right: 'hibernating' });
    expect(Status.decode(1)._tag).toBe('Left');
    expect(Status.encode('hibernating' as UnknownLiteral)).toBe('hibernating');
    expect(isKnownLiteral(Status, 'idle')).toBe(true);
    expect(isKnownLiteral(Status, 'hibernating')).toBe(false);
    expectTypeOf<t.TypeOf<typeof Status>>().toEqualTypeOf<'active' | 'idle' | UnknownLiteral>();
  });
});

describe('openUnion', () => {
  test('decodes known variants exactly as t.union, an unknown tag as a typed unknown variant', () => {
    const known = { type: 'plan', id: 'i1', steps: ['a'] };
    expect(Item.decode(known)).toEqual({ _tag: 'Right', right: known });
    const raw = { type: 'hologram', id: 'i2', depth: 3 };
    const decoded = Item.decode(raw);
    expect(decoded).toEqual({ _tag: 'Right', right: { _unknown: true, tag: 'type', literal: 'hologram', raw } });
    if (decoded._tag === 'Right') {
      expect(isUnknownVariant(decoded.right)).toBe(true);
      expect(Item.encode(decoded.right)).toBe(raw);
    }
  });

  test('a known variant that does not match fails as t.union does; so does a missing or non-string tag', () => {
    const broken = { type: 'plan', id: 'i1', steps: 'not a list' };
    expect(Item.decode(broken)._tag).toBe('Left');
    expect(Item.decode({ id: 'x' })._tag).toBe('Left');
    expect(Item.decode({ type: 7 })._tag).toBe('Left');
    expect(Item.decode('plan')._tag).toBe('Left');
  });

  test('switching on the tag narrows to the known variants and leaves the unknown one to handle', () => {
    type Decoded = t.TypeOf<typeof Item>;
    expectTypeOf<Extract<Decoded, { _unknown: true }>>().toEqualTypeOf<UnknownVariant<'type'>>();
    const describeItem = (item: Decoded): string => {
      switch (item.type) {
        case 'agentMessage':
          return item.text;
        case 'plan':
          return item.steps.join(',');
        default:
          expectTypeOf(item).toEqualTypeOf<UnknownVariant<'type'>>();
          return `unknown ${item.literal}`;
      }
    };
    expect(describeItem({ type: 'plan', id: 'i', steps: ['a', 'b'] })).toBe('a,b');
    const unknown = Item.decode({ type: 'hologram', id: 'i' });
    expect(unknown._tag === 'Right' ? describeItem(unknown.right) : '').toBe('unknown hologram');
  });
});
