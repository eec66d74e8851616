import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideManagementChange } from '../src/index.js';
import { pluginRefArbitrary } from '../src/testing.js';

describe('decideManagementChange', () => {
  it('a skill switch reloads in place with that skill; every other switch invalidates', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.boolean(), pluginRefArbitrary, (name, enabled, plugin) => {
        expect(decideManagementChange({ _tag: 'SkillToggled', skill: name, enabled })).toEqual({ _tag: 'Reload', membership: enabled ? 'Added' : 'Removed', skills: [name] });
        expect(decideManagementChange({ _tag: 'PluginToggled', plugin, enabled })).toMatchObject({ _tag: 'Invalidate', reason: 'PluginToggled' });
        expect(decideManagementChange({ _tag: 'AppToggled', app: name, enabled })).toMatchObject({ _tag: 'Invalidate', reason: 'Apps' });
        expect(decideManagementChange({ _tag: 'RemoteAppsToggled', enabled })).toMatchObject({ _tag: 'Invalidate' });
      }),
    );
  });
});
