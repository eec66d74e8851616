import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { findUninstallTarget, samePlugin, type PluginRef } from '../src/index.js';
import { withoutPlugin } from '../src/UninstallTarget.js';
import { pluginRefArbitrary } from '../src/testing.js';

const ref = (name: string, marketplace: string): PluginRef => ({ name, marketplace }) as PluginRef;

describe('uninstall targets', () => {
  it('picks the plugin of the target marketplace when display names are shared', () => {
    const entries = [
      { ref: ref('sites', 'wegent'), displayName: 'Sites' },
      { ref: ref('sites', 'wework-personal'), displayName: 'Sites' },
      { ref: ref('other', 'wework'), displayName: 'Sites' },
    ];
    expect(findUninstallTarget(entries, ref('sites', 'wework-personal'))).toEqual(E.right(entries[1]));
    expect(withoutPlugin(entries, ref('sites', 'wework-personal'))).toEqual([entries[0], entries[2]]);
    const missing = findUninstallTarget(entries, ref('Sites', 'wework'));
    expect(E.isLeft(missing) && missing.left._tag).toBe('UninstallTargetNotFound');
  });

  it('never matches on display name: only marketplace and plugin name decide', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ ref: pluginRefArbitrary, displayName: fc.constantFrom('Sites', 'Notes') })), pluginRefArbitrary, (entries, target) => {
        const found = findUninstallTarget(entries, target);
        if (E.isRight(found)) expect(samePlugin(found.right.ref, target)).toBe(true);
        else expect(entries.some((entry) => samePlugin(entry.ref, target))).toBe(false);
        const rest = withoutPlugin(entries, target);
        expect(rest.some((entry) => samePlugin(entry.ref, target))).toBe(false);
        expect(rest.length).toBe(entries.filter((entry) => !samePlugin(entry.ref, target)).length);
      }),
    );
  });
});
