import { describe, expect, test } from 'vitest';
import { openTree, toCodecTree } from '../src/codecTree.mjs';
import { planModules } from '../src/modules.mjs';
import { readProjectModel } from './modulesFixture.js';

describe('planModules', () => {
  test('a type used by one feature lives in its module, a type used by several in common', () => {
    const { model, plan } = readProjectModel();
    const { moduleOf, modules } = planModules(model.types, plan, { thread: 'thread', item: 'item' }, false);
    expect(moduleOf.get('ThreadStartParams')).toBe('thread');
    expect(moduleOf.get('AskParams')).toBe('item');
    expect(moduleOf.get('Status')).toBe('common');
    expect(modules).toEqual(['common', 'item', 'session', 'thread']);
  });

  test('what the peer sends is open where it widens; an open type that we also send gets a strict twin; off opens nothing', () => {
    const { model, plan } = readProjectModel();
    const on = planModules(model.types, plan, {}, true);
    // ErrorNotification and ThreadStartResponse are sent by the peer too, but hold no enum or tagged
    // union: they decode exactly as they encode, so they keep one (strict) codec and need no twin.
    expect([...on.open].sort()).toEqual(['AskParams', 'Status']);
    expect([...on.twins]).toEqual(['Status']);
    const off = planModules(model.types, plan, {}, false);
    expect(off.open.size + off.twins.size).toBe(0);
  });
});

describe('openTree', () => {
  test('turns enums into openKeyof and tagged object unions into openUnion, leaves other unions alone', () => {
    const tagged = toCodecTree(
      {
        kind: 'union',
        members: [
          { kind: 'object', properties: [{ name: 'type', optional: false, type: { kind: 'literal', value: 'a' } }] },
          { kind: 'object', properties: [{ name: 'type', optional: false, type: { kind: 'literal', value: 'b' } }] },
        ],
      },
      (id) => id,
    );
    expect(openTree(tagged)).toMatchObject({ kind: 'openUnion', tag: 'type', tags: ['a', 'b'] });
    const enumTree = toCodecTree({ kind: 'union', members: [{ kind: 'literal', value: 'x' }, { kind: 'literal', value: 'y' }] }, (id) => id);
    expect(openTree(enumTree)).toEqual({ kind: 'openKeyof', values: ['x', 'y'] });
    const plain = toCodecTree({ kind: 'union', members: [{ kind: 'string' }, { kind: 'number' }] }, (id) => id);
    expect(openTree(plain)).toEqual(plain);
  });
});
