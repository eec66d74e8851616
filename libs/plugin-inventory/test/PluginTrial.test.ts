import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preparePluginTrial, samePlugin, TRIAL_INVENTORY_FAILED, type PluginRef } from '../src/index.js';
import type { TrialPlugin } from '../src/PluginTrial.js';
import { pluginRefArbitrary } from '../src/testing.js';

const trialPluginArbitrary: fc.Arbitrary<TrialPlugin> = fc.record({
  ref: pluginRefArbitrary,
  installed: fc.boolean(),
  enabled: fc.boolean(),
  defaultPrompt: fc.option(fc.array(fc.string(), { maxLength: 3 }), { nil: null }),
});
const deviceArbitrary = fc.constantFrom('device-a', 'device-b');
const ref = (name: string, marketplace: string): PluginRef => ({ name, marketplace });

describe('preparePluginTrial', () => {
  it('an unreadable inventory always fails with the spec sentence, never asking for an installation', () => {
    fc.assert(
      fc.property(pluginRefArbitrary, deviceArbitrary, (plugin, deviceId) => {
        expect(preparePluginTrial({ _tag: 'Unreadable' }, { plugin, deviceId })).toEqual({ kind: 'failed', message: TRIAL_INVENTORY_FAILED });
      }),
    );
    expect(TRIAL_INVENTORY_FAILED).toBe('Could not check plugin installation on the target device. Try again.');
  });

  it('ready exactly when this device lists the same name and marketplace installed and enabled', () => {
    fc.assert(
      fc.property(fc.array(trialPluginArbitrary, { maxLength: 6 }), pluginRefArbitrary, deviceArbitrary, deviceArbitrary, (plugins, plugin, owner, target) => {
        const decision = preparePluginTrial({ _tag: 'Read', deviceId: owner, plugins }, { plugin, deviceId: target });
        const found = plugins.find((entry) => samePlugin(entry.ref, plugin));
        const reusable = owner === target && found !== undefined && found.installed && found.enabled;
        expect(decision.kind === 'ready').toBe(reusable);
        if (decision.kind === 'ready') expect(decision.defaultPrompt).toBe(found?.defaultPrompt?.[0] ?? null);
        if (owner !== target) expect(decision).toEqual({ kind: 'needsInstall', plugin, reason: 'otherDevice' });
        expect(decision.kind).not.toBe('failed');
      }),
    );
  });

  it('the same plugin name in another marketplace never counts', () => {
    const plugins = [{ ref: ref('wegent-sites', 'wework'), installed: true, enabled: true, defaultPrompt: ['Build'] }];
    expect(preparePluginTrial({ _tag: 'Read', deviceId: 'd', plugins }, { plugin: ref('wegent-sites', 'wegent'), deviceId: 'd' })).toEqual({
      kind: 'needsInstall',
      plugin: ref('wegent-sites', 'wegent'),
      reason: 'missing',
    });
  });

  it('a locally disabled plugin needs installation (re-enabling), whatever else is listed', () => {
    const plugins = [{ ref: ref('sites', 'wegent'), installed: true, enabled: false, defaultPrompt: null }];
    expect(preparePluginTrial({ _tag: 'Read', deviceId: 'd', plugins }, { plugin: ref('sites', 'wegent'), deviceId: 'd' })).toMatchObject({ kind: 'needsInstall', reason: 'disabled' });
  });
});
