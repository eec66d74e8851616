/**
 * Commits one plugin change and decides how running app-servers of the Codex home take it: the
 * plugin is inspected and config.toml read before and after the commit, and the difference goes to
 * {@link decideHotReload}. One place for the desktop and the cloud executor.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { configTomlChanges, decideHotReload, pluginRef, type HotReloadDecision, type PluginRef } from '@wework/plugin-inventory';
import type { Homes } from '../Layout.js';
import { nodeFileSystem } from '@wework/ports/node';
import { readTextOrNull } from './HomeFiles.js';
import { inspectInstalledPlugin } from './InspectInstalledPlugin.js';

/** A committed (or no-op) change and what the running app-servers need for it. */
export interface DecidedChange<T> {
  readonly result: T;
  /** `null` when the Codex side did not change (no commit, or only the Claude side was cleaned up). */
  readonly decision: HotReloadDecision | null;
}

const fs = nodeFileSystem();

const readConfig = (homes: Homes): Promise<string | null> => readTextOrNull(fs, join(homes.codexHome, 'config.toml'));

/**
 * Runs `commit` (a sync transaction of `plugin`) between two inspections of the Codex home and decides
 * from what really changed. A commit error is returned as it is.
 *
 * @example
 * ```ts
 * const decided = await commitAndDecide(homes, plugin, () => commitChange(ports, homes, change)());
 * // Right({ result, decision: { _tag: 'Reload', membership: 'Added', skills: ['standup'] } })
 * ```
 */
export async function commitAndDecide<L, T extends { readonly outcome: string }>(
  homes: Homes,
  plugin: PluginRef,
  commit: () => Promise<E.Either<L, T>>,
): Promise<E.Either<L, DecidedChange<T>>> {
  const before = await inspectInstalledPlugin(homes, plugin);
  const configBefore = await readConfig(homes);
  const committed = await commit();
  if (E.isLeft(committed)) return committed;
  if (committed.right.outcome !== 'Committed') return E.right({ result: committed.right, decision: null });
  const after = await inspectInstalledPlugin(homes, plugin);
  const configChanges = configTomlChanges(configBefore, await readConfig(homes));
  if (before._tag === 'NotInstalled' && after._tag === 'NotInstalled' && configChanges !== null && configChanges.length === 0) {
    return E.right({ result: committed.right, decision: null });
  }
  const ref = pluginRef(plugin.name, plugin.marketplace);
  const decision: HotReloadDecision =
    configChanges === null || E.isLeft(ref)
      ? { _tag: 'Invalidate', reason: 'Uninspectable', detail: configChanges === null ? 'config.toml could not be compared' : 'not a plugin identity' }
      : decideHotReload({ plugin: ref.right, before, after, configChanges });
  return E.right({ result: committed.right, decision });
}
