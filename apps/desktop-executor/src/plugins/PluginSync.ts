/**
 * Cloud plugin sync on this device: one all-or-nothing transaction per plugin (`@wework/sync-transaction`)
 * writes the package, the caches, registries and enablement; then the running app-server takes the
 * change. Bundled plugins of the desktop app are upgraded by the same path (`upgradeBundled`: compare
 * the version and every file, commit only when they differ, enablement preserved). A bundled
 * upgrade is background work: it runs through the home's mutation gate (it waits for running turns
 * and Codex requests, and turns wait while it runs). An install or removal the host asked for runs at
 * once (its install-time login may take minutes and must not hold turns back). A verified pure-skill installation or removal is reloaded in place (`config/batchWrite` with no
 * edits and `reloadUserConfig: true`, the process kept); anything else — and a reload that fails —
 * restarts the app-server (`@wework/plugin-inventory`'s decision).
 */
import * as E from 'fp-ts/lib/Either.js';
import { ConfigBatchWrite } from '@wework/codex-protocol';
import { afterReload, type HotReloadDecision, type PluginRef } from '@wework/plugin-inventory';
import {
  commitChange,
  upgradeBundled,
  type BeforeCommit,
  type BundledUpgradeResult,
  type Homes,
  type ManifestParseFailed,
  type PackageSource,
  type SyncError,
  type TransactionPorts,
  type TransactionResult,
} from '@wework/sync-transaction';
import { commitAndDecide } from '@wework/sync-transaction/node';
import type { Log } from '@wework/ports';
import type { RuntimeFault } from '@wework/host-errors';
import { describeRuntimeError } from '../runtime/LocalRuntime.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { authorizeBeforeCommit, type InstallAuthorizationOptions } from './installAuthorization.js';
import { openGate, type MutationGate, type MutationGateTimedOut } from './MutationGate.js';

/** How the running app-server took a committed change. */
export type RuntimeUpdate =
  | { readonly _tag: 'Reloaded'; readonly skills: ReadonlyArray<string> }
  | { readonly _tag: 'Restarted'; readonly reason: string }
  | { readonly _tag: 'NothingToApply' };

/** What a sync committed (or found already in place): the plugin and the transaction's outcome. */
export interface CommittedChange {
  readonly plugin: string;
  readonly outcome: TransactionResult['outcome'];
}

/** A committed change and how it reached the runtime. */
export interface PluginSyncOutcome<T extends CommittedChange = TransactionResult> {
  readonly transaction: T;
  readonly decision: HotReloadDecision | null;
  readonly runtime: RuntimeUpdate;
}

/** A bundled upgrade's check and, when it committed, its transaction. */
export interface BundledCommit extends CommittedChange {
  readonly bundled: BundledUpgradeResult;
}

/** Why a sync did not complete. */
export type PluginSyncError =
  | { readonly _tag: 'SyncFailed'; readonly error: SyncError | ManifestParseFailed }
  | { readonly _tag: 'GateTimedOut'; readonly error: MutationGateTimedOut }
  | { readonly _tag: 'RestartFailed'; readonly error: RuntimeFault; readonly transaction: CommittedChange };

/** A sentence for a person. */
export function describePluginSyncError(error: PluginSyncError): string {
  switch (error._tag) {
    case 'SyncFailed':
      return `the plugin could not be synchronised (${error.error._tag}); nothing on disk changed unless the report says otherwise`;
    case 'GateTimedOut':
      return `the plugin was not synchronised: running work did not end within the wait bound (${error.error.waitedMs} ms); nothing on disk changed`;
    case 'RestartFailed':
      return `the plugin was synchronised but the app-server did not restart: ${describeRuntimeError(error.error)}`;
  }
}

/** The short reason of a failed sync for a status (a typed error's tag; never a path or a message). */
export const syncFailureReason = (error: PluginSyncError): string => (error._tag === 'RestartFailed' ? error._tag : error.error._tag);

/** What a plugin sync needs. */
export interface PluginSyncOptions {
  readonly ports: TransactionPorts;
  readonly homes: Homes;
  readonly runtime: RuntimeSupervisor;
  readonly log: Log;
  /** ISO time for registries and the manifest. */
  readonly now: () => string;
  /** Install-time authorization of `on_install` connectors, loaded when a package declares some; without it such plugins install without a login check. */
  readonly authorization?: () => Promise<InstallAuthorizationOptions>;
  /** The home's mutation gate of bundled upgrades; default none (they run at once). */
  readonly gate?: MutationGate;
}

/** Installs, updates and removes cloud plugins on this device. */
export interface PluginSync {
  install(plugin: PluginRef, version: string, source: PackageSource): Promise<E.Either<PluginSyncError, PluginSyncOutcome>>;
  remove(plugin: PluginRef): Promise<E.Either<PluginSyncError, PluginSyncOutcome>>;
  /**
   * Checks a bundled package against the installed plugin and upgrades it when the version or any
   * file differs (enablement preserved, an uninstalled plugin left uninstalled); `beforeCommit`
   * validates the published caches before the commit mark.
   */
  upgradeBundled(plugin: PluginRef, version: string, source: PackageSource, beforeCommit?: BeforeCommit): Promise<E.Either<PluginSyncError, PluginSyncOutcome<BundledCommit>>>;
}

/** The plugin sync of one Codex home and its app-server. */
export function pluginSync(options: PluginSyncOptions): PluginSync {
  const { ports, homes, runtime, log } = options;

  const gate = options.gate ?? openGate;

  const restart = async <T extends CommittedChange>(reason: string, transaction: T, decision: HotReloadDecision | null): Promise<E.Either<PluginSyncError, PluginSyncOutcome<T>>> => {
    const restarted = await runtime.restart();
    if (E.isLeft(restarted)) return E.left({ _tag: 'RestartFailed', error: restarted.left, transaction });
    log({ event: 'plugin change applied by restart', fields: { plugin: transaction.plugin, reason } });
    return E.right({ transaction, decision, runtime: { _tag: 'Restarted', reason } });
  };

  const commitAndApply = async <T extends CommittedChange>(plugin: PluginRef, commit: () => Promise<E.Either<SyncError | ManifestParseFailed, T>>): Promise<E.Either<PluginSyncError, PluginSyncOutcome<T>>> => {
    const committed = await commitAndDecide(homes, plugin, commit);
    if (E.isLeft(committed)) {
      log({ event: 'plugin sync failed', fields: { plugin: `${plugin.name}@${plugin.marketplace}`, error: committed.left._tag } });
      return E.left({ _tag: 'SyncFailed', error: committed.left });
    }
    const { result: transaction, decision } = committed.right;
    if (decision === null) return E.right({ transaction, decision: null, runtime: { _tag: 'NothingToApply' } });
    log({ event: 'plugin change committed', fields: { plugin: transaction.plugin, decision: decision._tag, reason: decision._tag === 'Invalidate' ? decision.reason : null } });
    if (decision._tag === 'Invalidate') return restart(decision.reason, transaction, decision);
    const reloaded = await runtime.current().server.client.request(ConfigBatchWrite, { edits: [], reloadUserConfig: true });
    const next = afterReload(E.isRight(reloaded) ? 'Succeeded' : 'Failed');
    if (next._tag === 'Invalidate') return restart(next.reason, transaction, decision);
    log({ event: 'plugin change reloaded in place', fields: { plugin: transaction.plugin, skills: decision.skills } });
    return E.right({ transaction, decision, runtime: { _tag: 'Reloaded', skills: decision.skills } });
  };

  /** Commits and applies behind the mutation gate. */
  const gatedApply = async <T extends CommittedChange>(plugin: PluginRef, commit: () => Promise<E.Either<SyncError | ManifestParseFailed, T>>): Promise<E.Either<PluginSyncError, PluginSyncOutcome<T>>> => {
    const gated = await gate.mutate(() => commitAndApply(plugin, commit));
    return E.isLeft(gated) ? E.left({ _tag: 'GateTimedOut', error: gated.left }) : gated.right;
  };

  return {
    install: (plugin, version, source) =>
      commitAndApply(plugin, () =>
        commitChange(
          ports,
          homes,
          { _tag: 'Install', plugin, version, source, at: options.now() },
          options.authorization === undefined ? {} : { beforeCommit: authorizeBeforeCommit(options.authorization, `${plugin.name}@${plugin.marketplace}`) },
        )(),
      ),
    remove: (plugin) => commitAndApply(plugin, () => commitChange(ports, homes, { _tag: 'Remove', plugin, at: options.now() })()),
    upgradeBundled: (plugin, version, source, beforeCommit) =>
      gatedApply(plugin, async (): Promise<E.Either<SyncError | ManifestParseFailed, BundledCommit>> => {
        const checked = await upgradeBundled(ports, homes, { plugin, version, source, at: options.now() }, beforeCommit === undefined ? {} : { beforeCommit })();
        if (E.isLeft(checked)) return checked;
        const key = `${plugin.name}@${plugin.marketplace}`;
        return E.right(checked.right._tag === 'Upgraded' ? { plugin: key, outcome: checked.right.transaction.outcome, bundled: checked.right } : { plugin: key, outcome: 'Unchanged', bundled: checked.right });
      }),
  };
}
