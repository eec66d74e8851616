import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { formatPluginRef, parsePluginKey, parsePluginRef, pluginKey, pluginRef, samePlugin } from '../src/index.js';
import { PluginRefFromString } from '../src/PluginRef.js';
import { pluginRefArbitrary } from '../src/testing.js';

describe('plugin references', () => {
  it('parses plugin://name@marketplace', () => {
    expect(parsePluginRef('plugin://wegent-sites@wegent')).toEqual(E.right({ name: 'wegent-sites', marketplace: 'wegent' }));
    expect(parsePluginKey('weibo-miniapp-h5-develop-agent@wegent')).toEqual(E.right({ name: 'weibo-miniapp-h5-develop-agent', marketplace: 'wegent' }));
  });

  it.each([
    '',
    'plugin://',
    'plugin://sites',
    'plugin://@wegent',
    'plugin://sites@',
    'plugin://a@b@c',
    'plugin://si tes@wegent',
    'plugin://sites@wegent/extra',
    'plugin://sites@wegent?x=1',
    ' plugin://sites@wegent',
    'plugin://../x@wegent',
    'plugin://Sites!@wegent',
    'plugin://sitès@wegent',
    'app://sites@wegent',
    'sites@wegent',
  ])('rejects %j', (input) => {
    const parsed = parsePluginRef(input);
    expect(parsed._tag).toBe('Left');
    if (E.isLeft(parsed)) expect(parsed.left._tag).toBe('InvalidPluginRef');
  });

  it('round trips: parse(format(ref)) = ref, for every valid ref', () => {
    fc.assert(
      fc.property(pluginRefArbitrary, (ref) => {
        expect(parsePluginRef(formatPluginRef(ref))).toEqual(E.right(ref));
        expect(parsePluginKey(pluginKey(ref))).toEqual(E.right(ref));
        expect(PluginRefFromString.decode(PluginRefFromString.encode(ref))).toEqual(E.right(ref));
      }),
    );
  });

  it('round trips: format(parse(s)) = s, for every string that parses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), pluginRefArbitrary.map(formatPluginRef), fc.string().map((s) => `plugin://${s}`)), (input) => {
        const parsed = parsePluginRef(input);
        if (E.isRight(parsed)) expect(formatPluginRef(parsed.right)).toBe(input);
      }),
    );
  });

  it('the codec never throws on arbitrary JSON and accepts only valid references', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const decoded = PluginRefFromString.decode(value);
        if (E.isRight(decoded)) expect(typeof value === 'string' && E.isRight(parsePluginRef(value))).toBe(true);
      }),
    );
  });

  it('validates both names when building a reference', () => {
    expect(E.isRight(pluginRef('notes_2', 'wework-personal'))).toBe(true);
    expect(E.isLeft(pluginRef('notes 2', 'wework-personal'))).toBe(true);
    expect(E.isLeft(pluginRef('notes', 'wework personal'))).toBe(true);
    expect(E.isLeft(pluginRef('', 'wegent'))).toBe(true);
  });

  it('samePlugin compares plugin name and marketplace', () => {
    fc.assert(
      fc.property(pluginRefArbitrary, pluginRefArbitrary, (a, b) => {
        expect(samePlugin(a, b)).toBe(formatPluginRef(a) === formatPluginRef(b));
      }),
    );
  });
});
