import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { afterReload, decideHotReload, inspectManifest, type PluginRef, type PluginState } from '../src/index.js';
import type { ConfigChange, InvalidateReason, PluginChange, PluginInstalled } from '../src/HotReloadDecision.js';
import { pureSkillPluginArbitrary } from '../src/testing.js';

const plugin = { name: 'notes', marketplace: 'wegent' } as PluginRef;
const notInstalled: PluginState = { _tag: 'NotInstalled' };
const enablement: ConfigChange[] = [
  { file: 'config.toml', path: ['plugins', 'notes@wegent', 'enabled'] },
  { file: 'settings.json', path: ['enabledPlugins', 'notes@wegent'] },
];
const pureSkill: PluginInstalled = {
  _tag: 'Installed',
  manifest: {
    name: 'notes',
    version: '1.0.0',
    description: 'Note-taking skills',
    skills: './skills/',
    interface: { displayName: 'Notes', defaultPrompt: ['Summarize my notes'], capabilities: ['Read'] },
  },
  packageDigest: 'sha256-aaa',
  skills: ['summarize-notes', 'file-notes'],
  mcpServers: [],
  hooks: [],
  apps: [],
  enabled: true,
  disabledSkills: [],
  registered: true,
};
const install = (after: PluginState, configChanges: ConfigChange[] = enablement): PluginChange => ({ plugin, before: notInstalled, after, configChanges });
const removal = (before: PluginState, configChanges: ConfigChange[] = enablement): PluginChange => ({ plugin, before, after: notInstalled, configChanges });
const update = (before: PluginState, after: PluginState, configChanges: ConfigChange[] = []): PluginChange => ({ plugin, before, after, configChanges });
const withManifest = (extra: Record<string, unknown>): PluginInstalled => ({ ...pureSkill, manifest: { ...(pureSkill.manifest as object), ...extra } });

const reason = (change: PluginChange): InvalidateReason | 'Reload' => {
  const decision = decideHotReload(change);
  return decision._tag === 'Reload' ? 'Reload' : decision.reason;
};

describe('hot reload decision table', () => {
  it('installing a pure-skill plugin reloads, with the skills that join', () => {
    expect(decideHotReload(install(pureSkill))).toEqual({ _tag: 'Reload', membership: 'Added', skills: ['file-notes', 'summarize-notes'] });
  });

  it('removing a pure-skill plugin reloads, with the skills that leave', () => {
    expect(decideHotReload(removal(pureSkill))).toEqual({ _tag: 'Reload', membership: 'Removed', skills: ['file-notes', 'summarize-notes'] });
  });

  it('skill selectors: only selected skills join; none selected is no membership change', () => {
    expect(decideHotReload(install({ ...pureSkill, disabledSkills: ['file-notes'] }))).toEqual({ _tag: 'Reload', membership: 'Added', skills: ['summarize-notes'] });
    expect(reason(install({ ...pureSkill, disabledSkills: ['file-notes', 'summarize-notes'] }))).toBe('NoSkillMembershipChange');
  });

  it.each<[string, PluginChange, InvalidateReason]>([
    ['a package content update', update(pureSkill, { ...pureSkill, packageDigest: 'sha256-bbb' }), 'PackageContentChanged'],
    ['a version update', update(pureSkill, withManifest({ version: '1.1.0' })), 'VersionChanged'],
    ['a whole-plugin toggle (disable)', update(pureSkill, { ...pureSkill, enabled: false }, enablement), 'PluginToggled'],
    ['a whole-plugin toggle (enable)', update({ ...pureSkill, enabled: false }, pureSkill, enablement), 'PluginToggled'],
    ['an install with MCP servers declared in the manifest', install(withManifest({ mcpServers: './.mcp.json' })), 'McpServers'],
    ['an install with inline MCP servers', install(withManifest({ mcpServers: { forms: { command: 'node' } } })), 'McpServers'],
    ['an install with MCP servers found in the package', install({ ...pureSkill, mcpServers: ['forms'] }), 'McpServers'],
    ['a removal of a plugin with MCP servers', removal({ ...pureSkill, mcpServers: ['forms'] }), 'McpServers'],
    ['an install with hooks declared', install(withManifest({ hooks: './hooks/hooks.json' })), 'Hooks'],
    ['an install with hooks found in the package', install({ ...pureSkill, hooks: ['PreToolUse'] }), 'Hooks'],
    ['an install with apps declared', install(withManifest({ apps: './.app.json' })), 'Apps'],
    ['an install with apps found in the package', install({ ...pureSkill, apps: ['connector_1'] }), 'Apps'],
    ['an install with an unknown manifest capability', install(withManifest({ agents: './agents/' })), 'UnknownCapabilities'],
    ['an install with Claude commands', install(withManifest({ commands: ['./commands/x.md'] })), 'UnknownCapabilities'],
    ['an unrelated config change', install(pureSkill, [...enablement, { file: 'config.toml', path: ['model'] }]), 'UnrelatedConfigChange'],
    ['another plugin’s config entry', install(pureSkill, [{ file: 'config.toml', path: ['plugins', 'mail@wegent', 'enabled'] }]), 'UnrelatedConfigChange'],
    ['an edit of another file', install(pureSkill, [{ file: 'hooks.json', path: ['hooks'] }]), 'UnrelatedConfigChange'],
    ['an uninspectable new state', install({ _tag: 'Uninspectable', reason: 'journal pending' }), 'Uninspectable'],
    ['an uninspectable previous state', removal({ _tag: 'Uninspectable', reason: 'manifest missing' }), 'Uninspectable'],
    ['a manifest that is not an object', install({ ...pureSkill, manifest: 'nope' }), 'Uninspectable'],
    ['a manifest field of the wrong type', install(withManifest({ version: 2 })), 'Uninspectable'],
    ['a manifest naming another plugin', install(withManifest({ name: 'mail' })), 'IdentityMismatch'],
    ['an install missing from the registries', install({ ...pureSkill, registered: false }), 'RegistryMismatch'],
    ['an install of a disabled plugin', install({ ...pureSkill, enabled: false }), 'NoSkillMembershipChange'],
    ['a removal of a disabled plugin', removal({ ...pureSkill, enabled: false }), 'NoSkillMembershipChange'],
    ['an install of a plugin with no skills', install({ ...pureSkill, skills: [] }), 'NoSkillMembershipChange'],
    ['a reinstall of the same package', update(pureSkill, pureSkill), 'NotInstallOrRemoval'],
    ['a skill selector change on an installed plugin', update(pureSkill, { ...pureSkill, disabledSkills: ['file-notes'] }, enablement), 'NotInstallOrRemoval'],
    ['nothing installed on either side', update(notInstalled, notInstalled), 'NotInstallOrRemoval'],
  ])('%s invalidates', (_name, change, expected) => {
    expect(reason(change)).toBe(expected);
  });

  it('an empty manifest name falls back to the plugin directory name (Codex), so it matches', () => {
    expect(reason(install(withManifest({ name: '' })))).toBe('Reload');
  });

  it('empty declarations declare nothing', () => {
    expect(reason(install(withManifest({ mcpServers: {}, hooks: [], apps: '' })))).toBe('Reload');
    expect(reason(install(withManifest({ author: { name: 'Wegent' }, homepage: 'https://example.test', license: 'MIT', keywords: ['notes'] })))).toBe('Reload');
  });

  it('a failed or cancelled reload invalidates; only success keeps the process', () => {
    expect(afterReload('Succeeded')).toEqual({ _tag: 'KeepProcess' });
    expect(afterReload('Failed')).toMatchObject({ _tag: 'Invalidate', reason: 'ReloadFailed' });
    expect(afterReload('Cancelled')).toMatchObject({ _tag: 'Invalidate', reason: 'ReloadCancelled' });
  });
});

/** Changes that go beyond skill membership, applied to a verified pure-skill install or removal. */
const outside: ReadonlyArray<fc.Arbitrary<(change: PluginChange) => PluginChange>> = (() => {
  const onInstalled = (f: (state: PluginInstalled) => PluginState) => (change: PluginChange): PluginChange => ({
    ...change,
    before: change.before._tag === 'Installed' ? f(change.before) : change.before,
    after: change.after._tag === 'Installed' ? f(change.after) : change.after,
  });
  const manifestWith = (extra: Record<string, unknown>) => onInstalled((state) => ({ ...state, manifest: { ...(state.manifest as object), ...extra } }));
  const name = fc.stringMatching(/^[a-z]{1,8}$/);
  const unknownKey = fc.stringMatching(/^[a-zA-Z$][a-zA-Z]{0,10}$/).filter(
    (key) => !['name', 'version', 'description', 'keywords', 'skills', 'mcpServers', 'apps', 'hooks', 'interface', 'author', 'homepage', 'repository', 'license'].includes(key),
  );
  const toUpdate = (f: (state: PluginInstalled) => PluginInstalled) => (change: PluginChange): PluginChange => {
    const installed = (change.after._tag === 'Installed' ? change.after : change.before) as PluginInstalled;
    return { ...change, before: installed, after: f(installed) };
  };
  return [
    name.map((server) => manifestWith({ mcpServers: { [server]: { command: 'x' } } })),
    fc.constant(manifestWith({ mcpServers: './.mcp.json' })),
    name.map((server) => onInstalled((state) => ({ ...state, mcpServers: [server] }))),
    fc.constant(manifestWith({ hooks: './hooks.json' })),
    name.map((hook) => onInstalled((state) => ({ ...state, hooks: [hook] }))),
    fc.constant(manifestWith({ apps: './.app.json' })),
    name.map((app) => onInstalled((state) => ({ ...state, apps: [app] }))),
    fc.tuple(unknownKey, fc.jsonValue()).map(([key, value]) => manifestWith({ [key]: value === null ? 1 : value })),
    fc.array(name, { minLength: 1, maxLength: 3 }).map((path) => (change: PluginChange): PluginChange => ({ ...change, configChanges: [...change.configChanges, { file: 'config.toml', path }] })),
    fc.constant((change: PluginChange): PluginChange => ({ ...change, configChanges: [...change.configChanges, { file: 'auth.json', path: [] }] })),
    fc.boolean().map((side) => (change: PluginChange): PluginChange => (side ? { ...change, before: { _tag: 'Uninspectable', reason: 'x' } } : { ...change, after: { _tag: 'Uninspectable', reason: 'x' } })),
    fc.constant(manifestWith({ version: 3 })),
    fc.constant(manifestWith({ name: 'someone-else' })),
    fc.constant(onInstalled((state) => ({ ...state, registered: false }))),
    fc.constant(toUpdate((state) => ({ ...state, packageDigest: `${state.packageDigest}-2` }))),
    fc.constant(toUpdate((state) => ({ ...state, manifest: { ...(state.manifest as object), version: '9.9.9-changed' } }))),
    fc.constant(toUpdate((state) => ({ ...state, enabled: !state.enabled }))),
  ];
})();

const pureChange = fc.tuple(pureSkillPluginArbitrary('notes'), fc.boolean()).map(([state, installing]) => (installing ? install(state) : removal(state)));

describe('hot reload decision properties', () => {
  it('a verified pure-skill install or removal reloads', () => {
    fc.assert(
      fc.property(pureChange, (change) => {
        expect(decideHotReload(change)).toMatchObject({ _tag: 'Reload', membership: change.after._tag === 'Installed' ? 'Added' : 'Removed' });
      }),
    );
  });

  it('any change outside skill membership invalidates', () => {
    fc.assert(
      fc.property(pureChange, fc.array(fc.oneof(...outside), { minLength: 1, maxLength: 3 }), (change, perturbations) => {
        const perturbed = perturbations.reduce((acc, perturb) => perturb(acc), change);
        expect(decideHotReload(perturbed)._tag).toBe('Invalidate');
      }),
    );
  });

  it('never throws and never reloads on arbitrary manifests with capabilities beyond skills', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (manifest) => {
        const decision = decideHotReload(install({ ...pureSkill, manifest }));
        if (decision._tag === 'Reload') {
          const inspected = inspectManifest(manifest);
          expect(E.isRight(inspected)).toBe(true);
          if (E.isRight(inspected)) {
            const { mcpServers, hooks, apps, unknown } = inspected.right.capabilities;
            expect([mcpServers, hooks, apps, unknown.length > 0]).toEqual([false, false, false, false]);
          }
        }
      }),
    );
  });
});
