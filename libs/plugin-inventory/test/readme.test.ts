/**
 * The example at the top of README.md, kept compiling and passing.
 */
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import {
  decideHotReload,
  formatPluginRef,
  makeOfficialCatalogCache,
  marketplaceForVisibility,
  mergeInventory,
  parsePluginRef,
  pluginRef,
  recordReceipt,
  retryDelay,
  snapshotInventory,
  type CatalogCacheKey,
} from '../src/index.js';
import type { PluginInstalled } from '../src/HotReloadDecision.js';
import { makeFakeClock } from '../src/testing.js';

test('README example', async () => {
  const clock = makeFakeClock(1_700_000_000_000);
  const readOfficialCatalog = (_key: CatalogCacheKey) => Promise.resolve(E.right({ plugins: ['gmail', 'linear'] }));
  const key: CatalogCacheKey = { deviceId: 'd1', runtimeInstanceId: 'r1', authFingerprint: 'f1', accountId: 'u1' };
  const notes: PluginInstalled = {
    _tag: 'Installed', manifest: { name: 'notes', version: '1.0.0', skills: './skills/' }, packageDigest: 'sha256-1',
    skills: ['summarize-notes'], mcpServers: [], hooks: [], apps: [], enabled: true, disabledSkills: [], registered: true,
  };

  // --- README example begins ---
  const ref = pluginRef('notes', marketplaceForVisibility('workspace'));    // Right({ name: 'notes', marketplace: 'wegent' })
  if (E.isLeft(ref)) throw new Error(ref.left.message);
  formatPluginRef(ref.right);                                               // 'plugin://notes@wegent'
  parsePluginRef('plugin://notes@wegent');                                  // Right(the same ref)

  // Codex accepted the install; plugin/installed does not list it yet.
  const receipts = recordReceipt([], { ref: ref.right, acceptedAt: clock.now() }, clock.now());
  const shown = mergeInventory([], receipts, clock.now());                  // [Bridged notes], nextChangeAt: now + 5 min
  const later = mergeInventory([], receipts, clock.now() + 5 * 60_000);     // []: the receipt no longer overrides

  const snapshot = snapshotInventory([{ ref: ref.right, installed: true, enabled: true }], clock.now()); // what goes to disk

  retryDelay(0); retryDelay(1); retryDelay(20);                             // 0 (immediate), 60_000, 3_600_000

  const cache = makeOfficialCatalogCache({ fetch: readOfficialCatalog, clock });
  const [a, b] = await Promise.all([cache.read(key), cache.read(key)]);      // one fetch, both Right(metadata)

  decideHotReload({ plugin: ref.right, before: { _tag: 'NotInstalled' }, after: notes, configChanges: [
    { file: 'config.toml', path: ['plugins', 'notes@wegent', 'enabled'] },
  ] });                                                                     // { _tag: 'Reload', membership: 'Added', skills: ['summarize-notes'] }
  // --- README example ends ---

  expect(formatPluginRef(ref.right)).toBe('plugin://notes@wegent');
  expect(parsePluginRef('plugin://notes@wegent')).toEqual(ref);
  expect(shown.plugins).toMatchObject([{ _tag: 'Bridged', ref: ref.right, entry: null }]);
  expect(shown.nextChangeAt).toBe(clock.now() + 5 * 60_000);
  expect(later.plugins).toEqual([]);
  expect(snapshot.plugins).toHaveLength(1);
  expect([retryDelay(0), retryDelay(1), retryDelay(20)]).toEqual([0, 60_000, 3_600_000]);
  expect(a).toEqual(b);
  expect(E.isRight(a)).toBe(true);
  expect(
    decideHotReload({ plugin: ref.right, before: { _tag: 'NotInstalled' }, after: notes, configChanges: [
      { file: 'config.toml', path: ['plugins', 'notes@wegent', 'enabled'] },
    ] }),
  ).toEqual({ _tag: 'Reload', membership: 'Added', skills: ['summarize-notes'] });
});
