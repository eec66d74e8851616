/**
 * Choosing what an uninstall removes. The target is a {@link PluginRef}: marketplace and plugin
 * name must both match. A display name is never used, so two marketplaces offering plugins with the
 * same display name (or even the same plugin name) never remove each other's plugin.
 *
 * Every function here is pure.
 */
import * as E from 'fp-ts/lib/Either.js';
import { formatPluginRef, samePlugin, type PluginRef } from './PluginRef.js';

/** Anything in the inventory that carries its identity. */
export interface Identified {
  readonly ref: PluginRef;
}

/** No inventory entry has the target's marketplace and plugin name. */
export interface UninstallTargetNotFound {
  readonly _tag: 'UninstallTargetNotFound';
  readonly target: PluginRef;
  readonly message: string;
}

/**
 * The inventory entry an uninstall of `target` removes: the first entry with the same marketplace and
 * plugin name; `Left(UninstallTargetNotFound)` if there is none. Display names, descriptions and any
 * other field are ignored.
 * @example
 * ```ts
 * const entries = [
 *   { ref: { name: 'sites', marketplace: 'wegent' }, displayName: 'Sites' },
 *   { ref: { name: 'sites', marketplace: 'wework-personal' }, displayName: 'Sites' },
 * ];
 * findUninstallTarget(entries, { name: 'sites', marketplace: 'wework-personal' }); // Right(entries[1])
 * ```
 */
export const findUninstallTarget = <A extends Identified>(entries: ReadonlyArray<A>, target: PluginRef): E.Either<UninstallTargetNotFound, A> => {
  const found = entries.find((entry) => samePlugin(entry.ref, target));
  return found === undefined
    ? E.left({ _tag: 'UninstallTargetNotFound', target, message: `No installed plugin is ${formatPluginRef(target)}` })
    : E.right(found);
};

/** The entries that remain after uninstalling `target`: every entry that is not the same plugin. */
export const withoutPlugin = <A extends Identified>(entries: ReadonlyArray<A>, target: PluginRef): ReadonlyArray<A> =>
  entries.filter((entry) => !samePlugin(entry.ref, target));
