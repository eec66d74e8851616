import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { editClaudeInstalledPlugins, editClaudeKnownMarketplaces, editClaudeSettings, editCodexMarketplace, readClaudeEnablement } from '../src/Registries.js';

const key = 'forms@wework';

describe('Claude and Codex registries', () => {
  it('installed_plugins.json: keeps the first installedAt across updates and other plugins untouched', () => {
    const first = editClaudeInstalledPlugins(null, key, { installPath: '/c/1', version: '1', at: 'T1' });
    const withOther = E.map((t: string) => t.replace('"plugins": {', '"plugins": {\n    "x@y": [],'))(first);
    const second = E.flatMap((t: string) => editClaudeInstalledPlugins(t, key, { installPath: '/c/2', version: '2', at: 'T2' }))(withOther);
    expect(E.map((t: string) => JSON.parse(t))(second)).toEqual(
      E.right({ version: 2, plugins: { 'x@y': [], [key]: [{ scope: 'user', installPath: '/c/2', version: '2', installedAt: 'T1', lastUpdated: 'T2' }] } }),
    );
    expect(E.map((t: string) => JSON.parse(t))(E.flatMap((t: string) => editClaudeInstalledPlugins(t, key, null))(second))).toEqual(E.right({ version: 2, plugins: { 'x@y': [] } }));
  });

  it('settings.json: sets, reads and removes enabledPlugins entries, keeping other settings', () => {
    const text = '{"theme":"dark"}';
    const enabled = editClaudeSettings(text, key, false);
    expect(E.map((t: string) => JSON.parse(t))(enabled)).toEqual(E.right({ theme: 'dark', enabledPlugins: { [key]: false } }));
    expect(E.flatMap((t: string) => readClaudeEnablement(t, key))(enabled)).toEqual(E.right(false));
    expect(editClaudeSettings(text, key, null)).toEqual(E.right(text));
  });

  it('known_marketplaces.json: registers a marketplace once', () => {
    const once = editClaudeKnownMarketplaces(null, 'wework', '/claude/plugins/marketplaces/wework', 'T');
    expect(E.flatMap((t: string) => editClaudeKnownMarketplaces(t, 'wework', '/elsewhere', 'T2'))(once)).toEqual(once);
  });

  it('marketplace.json: one entry per plugin, removed by name', () => {
    const added = editCodexMarketplace(null, 'wework', 'forms', '../../cache/wework/forms/1');
    expect(E.map((t: string) => JSON.parse(t))(added)).toEqual(E.right({ name: 'wework', plugins: [{ name: 'forms', source: { source: 'local', path: '../../cache/wework/forms/1' } }] }));
    expect(E.flatMap((t: string) => editCodexMarketplace(t, 'wework', 'forms', '../../cache/wework/forms/1'))(added)).toEqual(added);
    expect(E.map((t: string) => JSON.parse(t))(E.flatMap((t: string) => editCodexMarketplace(t, 'wework', 'forms', null))(added))).toEqual(E.right({ name: 'wework', plugins: [] }));
  });

  it('reports files that are not JSON objects', () => {
    expect(editClaudeSettings('[1]', key, true)).toEqual(E.left({ _tag: 'ParseFailed', file: 'settings.json', detail: 'not a JSON object' }));
    expect(editClaudeInstalledPlugins('{', key, null)).toMatchObject({ left: { _tag: 'ParseFailed', file: 'installed_plugins.json' } });
  });
});
