/**
 * The reconcile: from the desired plugins and what this device's manifest records as ours to the
 * changes to make. Missing and outdated plugins are installed; plugins we installed that are no longer
 * desired are removed, and so are explicitly uninstalled ones that still carry Claude state from an
 * earlier dual-runtime install (Codex-only mode cleans it up). A plugin the manifest does not record is
 * never touched. Failed removals wait for their backoff (`@wework/plugin-inventory`'s retry schedule).
 *
 * Every function here is pure: the desired state, the manifest, the retry schedule and `now` in; the
 * actions and the next schedule out.
 */
import * as E from 'fp-ts/lib/Either.js';
import { attemptFailed, isDue, nextAttemptAt, pluginKey, type PluginRef, type RemovalAttempting, type RemovalState } from '@wework/plugin-inventory';
import { checkPluginId, claudeSideOf, type Homes, type Manifest } from '@wework/sync-transaction';
import type { DesiredPlugin } from './DesiredState.js';

/** Why a plugin is installed. */
export type InstallReason = 'Missing' | 'Outdated' | 'Reinstalled';

/** Why a plugin is removed: not desired any more, or uninstalled earlier with Claude state still left. */
export type RemoveReason = 'NotDesired' | 'StaleClaudeState';

/** One change the reconcile asks for. */
export type ReconcileAction =
  | { readonly _tag: 'Install'; readonly plugin: PluginRef; readonly version: string; readonly packagePath: string; readonly reason: InstallReason }
  | { readonly _tag: 'Remove'; readonly plugin: PluginRef; readonly reason: RemoveReason }
  /** A removal that failed before and whose next attempt is not due yet. */
  | { readonly _tag: 'RemovalDeferred'; readonly plugin: PluginRef; readonly reason: RemoveReason; readonly nextAttemptAt: number };

/** The retry state of each pending removal, by plugin key. */
export type RemovalSchedule = ReadonlyMap<string, RemovalState>;

/** No removal pending. */
export const emptySchedule: RemovalSchedule = new Map();

/** A manifest key back to its plugin (`null` for a key that is not one of ours). */
const pluginOfKey = (key: string): PluginRef | null => {
  const at = key.indexOf('@');
  if (at <= 0) return null;
  const plugin = { name: key.slice(0, at), marketplace: key.slice(at + 1) };
  return E.isRight(checkPluginId(plugin)) ? plugin : null;
};

const byKey = (a: { readonly plugin: PluginRef }, b: { readonly plugin: PluginRef }): number => (pluginKey(a.plugin) < pluginKey(b.plugin) ? -1 : 1);

/**
 * The changes that bring the device to `desired`: removals (and deferred removals) first, then
 * installs, each group in plugin-key order.
 *
 * @example
 * ```ts
 * planReconcile({ desired: [], manifest, homes, schedule: emptySchedule, now: Date.now() });
 * // [{ _tag: 'Remove', plugin: { name: 'notes', marketplace: 'wegent' }, reason: 'NotDesired' }]
 * ```
 */
export const planReconcile = (input: {
  readonly desired: ReadonlyArray<DesiredPlugin>;
  readonly manifest: Manifest;
  readonly homes: Homes;
  readonly schedule: RemovalSchedule;
  readonly now: number;
}): ReadonlyArray<ReconcileAction> => {
  const { desired, manifest, homes, schedule, now } = input;
  const wanted = new Set(desired.map((plugin) => pluginKey(plugin)));
  const removals: ReconcileAction[] = [];
  for (const [key, record] of Object.entries(manifest.plugins)) {
    if (wanted.has(key)) continue;
    const plugin = pluginOfKey(key);
    if (plugin === null) continue;
    const reason: RemoveReason | null =
      record.status === 'installed' ? 'NotDesired' : claudeSideOf(homes, { _tag: 'Remove', plugin }, manifest) === 'cleanup' ? 'StaleClaudeState' : null;
    if (reason === null) continue;
    const state = schedule.get(key);
    const due = state === undefined || isDue(state, now);
    removals.push(due ? { _tag: 'Remove', plugin, reason } : { _tag: 'RemovalDeferred', plugin, reason, nextAttemptAt: (state === undefined ? null : nextAttemptAt(state)) ?? now });
  }
  const installs: ReconcileAction[] = [];
  for (const wantedPlugin of desired) {
    const plugin = { name: wantedPlugin.name, marketplace: wantedPlugin.marketplace };
    const record = manifest.plugins[pluginKey(plugin)];
    const reason: InstallReason | null =
      record === undefined ? 'Missing' : record.status === 'uninstalled' ? 'Reinstalled' : record.version !== wantedPlugin.version ? 'Outdated' : null;
    if (reason !== null) installs.push({ _tag: 'Install', plugin, version: wantedPlugin.version, packagePath: wantedPlugin.package.path, reason });
  }
  return [...removals.sort(byKey), ...installs.sort(byKey)];
};

/**
 * The schedule after a removal attempt at `now`: forgotten when it succeeded, otherwise the next attempt
 * is due after the backoff (60 s doubling per failure, at most an hour).
 */
export const afterRemovalAttempt = (schedule: RemovalSchedule, plugin: PluginRef, succeeded: boolean, now: number): RemovalSchedule => {
  const key = pluginKey(plugin);
  const next = new Map(schedule);
  if (succeeded) {
    next.delete(key);
    return next;
  }
  const state = schedule.get(key);
  const attempting: RemovalAttempting = { _tag: 'Attempting', attempts: (state?._tag === 'Failed' ? state.attempts : 0) + 1, startedAt: now };
  next.set(key, attemptFailed(attempting, now));
  return next;
};

/** The schedule without plugins that are no longer to be removed (desired again, or gone from the manifest). */
export const pruneSchedule = (schedule: RemovalSchedule, actions: ReadonlyArray<ReconcileAction>): RemovalSchedule => {
  const pending = new Set(actions.filter((action) => action._tag !== 'Install').map((action) => pluginKey(action.plugin)));
  return new Map([...schedule].filter(([key]) => pending.has(key)));
};

/** When the next deferred removal is due, or `null` when none is waiting. */
export const nextRetryAt = (schedule: RemovalSchedule): number | null => {
  const times = [...schedule.values()].map(nextAttemptAt).filter((at): at is number => at !== null);
  return times.length === 0 ? null : Math.min(...times);
};
