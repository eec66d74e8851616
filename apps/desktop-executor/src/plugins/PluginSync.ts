/**
 * Cloud plugin sync on this device: one all-or-nothing transaction per plugin (`@wework/sync-transaction`)
 * writes the package, the caches, registries and enablement; then the running app-server takes the
 * change. A verified pure-skill installation or removal is reloaded in place (`config/batchWrite` with no
 * edits and `reloadUserConfig: true`, the process kept); anything else — and a reload that fails —
 * restarts the app-server (`@wework/plugin-inventory`'s decision).
 */
import * as E from 'fp-ts/lib/Either.js';
import { ConfigBatchWrite } from '@wework/codex-protocol';
import { afterReload, type HotReloadDecision, type PluginRef } from '@wework/plugin-inventory';
import { commitChange, type Homes, type PackageSource, type SyncError, type TransactionPorts, type TransactionResult } from '@wework/sync-transaction';
import { commitAndDecide } from '@wework/sync-transaction/node';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import { describeRuntimeError, type RuntimeError } from '../runtime/LocalRuntime.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { authorizeBeforeCommit, type InstallAuthorizationOptions } from './installAuthorization.js';

/** How the running app-server took a committed change. */
export type RuntimeUpdate =
  | { readonly _tag: 'Reloaded'; readonly skills: ReadonlyArray<string> }
  | { readonly _tag: 'Restarted'; readonly reason: string }
  | { readonly _tag: 'NothingToApply' };

/** A committed change and how it reached the runtime. */
export interface PluginSyncOutcome {
  readonly transaction: TransactionResult;
  readonly decision: HotReloadDecision | null;
  readonly runtime: RuntimeUpdate;
}

/** Why a sync did not complete. */
export type PluginSyncError =
  | { readonly _tag: 'SyncFailed'; readonly error: SyncError }
  | { readonly _tag: 'RestartFailed'; readonly error: RuntimeError; readonly transaction: TransactionResult };

/** A sentence for a person. */
export function describePluginSyncError(error: PluginSyncError): string {
  return error._tag === 'SyncFailed'
    ? `the plugin could not be synchronised (${error.error._tag}); nothing on disk changed unless the report says otherwise`
    : `the plugin was synchronised but the app-server did not restart: ${describeRuntimeError(error.error)}`;
}

/** What a plugin sync needs. */
export interface PluginSyncOptions {
  readonly ports: TransactionPorts;
  readonly homes: Homes;
  readonly runtime: RuntimeSupervisor;
  readonly log: ExecutorLog;
  /** ISO time for registries and the manifest. */
  readonly now: () => string;
  /** Install-time authorization of `on_install` connectors; without it such plugins install without a login check. */
  readonly authorization?: InstallAuthorizationOptions;
}

/** Installs, updates and removes cloud plugins on this device. */
export interface PluginSync {
  install(plugin: PluginRef, version: string, source: PackageSource): Promise<E.Either<PluginSyncError, PluginSyncOutcome>>;
  remove(plugin: PluginRef): Promise<E.Either<PluginSyncError, PluginSyncOutcome>>;
}

/** The plugin sync of one Codex home and its app-server. */
export function pluginSync(options: PluginSyncOptions): PluginSync {
  const { ports, homes, runtime, log } = options;

  const restart = async (reason: string, transaction: TransactionResult, decision: HotReloadDecision | null): Promise<E.Either<PluginSyncError, PluginSyncOutcome>> => {
    const restarted = await runtime.restart();
    if (E.isLeft(restarted)) return E.left({ _tag: 'RestartFailed', error: restarted.left, transaction });
    log({ event: 'plugin change applied by restart', fields: { plugin: transaction.plugin, reason } });
    return E.right({ transaction, decision, runtime: { _tag: 'Restarted', reason } });
  };

  const apply = async (plugin: PluginRef, commit: () => Promise<E.Either<SyncError, TransactionResult>>): Promise<E.Either<PluginSyncError, PluginSyncOutcome>> => {
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

  return {
    install: (plugin, version, source) =>
      apply(plugin, () =>
        commitChange(
          ports,
          homes,
          { _tag: 'Install', plugin, version, source, at: options.now() },
          options.authorization === undefined ? {} : { beforeCommit: authorizeBeforeCommit(options.authorization, `${plugin.name}@${plugin.marketplace}`) },
        )(),
      ),
    remove: (plugin) => apply(plugin, () => commitChange(ports, homes, { _tag: 'Remove', plugin, at: options.now() })()),
  };
}
