/**
 * Plugin management as the host protocol sees it (`plugins/list`, `plugins/install`,
 * `plugins/uninstall`). The executor's plugin module implements it; until it is wired, every call
 * answers "not available".
 */
import * as E from 'fp-ts/lib/Either.js';
import type { PluginSummary } from '@wework/host-protocol';

/** Why a plugin operation failed. */
export type PluginServiceError =
  | { readonly _tag: 'PluginsNotAvailable'; readonly message: string }
  | { readonly _tag: 'PluginNotFound'; readonly pluginId: string }
  | { readonly _tag: 'PluginOperationFailed'; readonly message: string }
  /**
   * `plugins/install` refused the package before anything was written: `reason` is the intake's
   * (`Symlink`, `SpecialFile`, `Hardlink`, `FileTooLarge`, `PackageTooLarge`, `TooManyEntries`,
   * `TooDeep`, `EntryChanged`, `TimedOut`, `Unreadable`, `NotADirectory`), the validation's
   * (`ParentSegment`, `CaseCollision`, …) or `LinkInHome` (a link planted inside the homes).
   */
  | { readonly _tag: 'PackageRefused'; readonly reason: string; readonly message: string };

/** What the host protocol asks of plugin management. */
export interface PluginService {
  list(): Promise<E.Either<PluginServiceError, ReadonlyArray<PluginSummary>>>;
  /**
   * Installs (or updates to) `version` of a plugin from the package the host downloaded and unpacked at
   * `packagePath` (an absolute directory; its content is untrusted and validated before anything is written).
   */
  install(request: { readonly marketplace: string; readonly plugin: string; readonly version: string; readonly packagePath: string }): Promise<E.Either<PluginServiceError, PluginSummary>>;
  uninstall(request: { readonly pluginId: string }): Promise<E.Either<PluginServiceError, void>>;
}

/**
 * The plugin service of an executor whose plugin management is not wired: every call answers
 * `PluginsNotAvailable`.
 */
export function unavailablePluginService(): PluginService {
  const notAvailable = <A>(): Promise<E.Either<PluginServiceError, A>> =>
    Promise.resolve(E.left({ _tag: 'PluginsNotAvailable', message: 'plugin management is not available in this executor yet' }));
  return { list: notAvailable, install: notAvailable, uninstall: notAvailable };
}
