/**
 * The cloud executor: the Wework Codex home prepared without asking anyone (a cloud device has no
 * user: the default first-start choice), interrupted plugin transactions recovered, one app-server
 * started, and then desired-state messages reconciled one at a time. Each change is one
 * `@wework/sync-transaction` transaction in the runtime target's mode (Codex-only by default: nothing
 * created on the Claude side, stale Claude registrations of removed plugins cleaned up); committed
 * changes reach the running app-server by a reload in place when `@wework/plugin-inventory` allows it,
 * by a restart otherwise. Failed removals are retried on their backoff by an injected timer.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as T from 'fp-ts/lib/Task.js';
import { ConfigBatchWrite } from '@wework/codex-protocol';
import { DEFAULT_MIGRATION_CHOICE } from '@wework/codex-home';
import { nodeCodexHome } from '@wework/codex-home/node';
import { afterReload, pluginKey, type HotReloadDecision, type PluginRef } from '@wework/plugin-inventory';
import {
  commitChange,
  readManifest,
  recoverAll,
  type Homes,
  type Manifest,
  type SyncError,
  type TransactionPorts,
  type TransactionResult,
} from '@wework/sync-transaction';
import { commitAndDecide, directoryPackageSource } from '@wework/sync-transaction/node';
import { startAppServerRuntime, type AppServerRuntime } from './AppServerRuntime.js';
import type { CloudConfig } from './CloudConfig.js';
import { decodeMessage, type DesiredPlugin } from './DesiredState.js';
import type { Clock, Timer } from '@wework/ports';
import type { Log } from '@wework/ports';
import type { DesiredStateSource, StatusSink } from './Ports.js';
import { afterRemovalAttempt, emptySchedule, nextRetryAt, planReconcile, pruneSchedule, type ReconcileAction, type RemovalSchedule } from './Reconcile.js';
import { allDone, formatStatusLine, syncErrorReport, type ActionReport, type RuntimeReport, type StatusLine, type Trigger } from './StatusLine.js';

/** What the executor runs on. */
export interface CloudExecutorOptions {
  readonly config: CloudConfig;
  /** The environment the app-server inherits (and `WEGENT_CODEX_HOME` is read from). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly ports: TransactionPorts;
  readonly clock: Clock;
  /** Fires the retry of failed removals. */
  readonly timer: Timer;
  /** Receives one status line per processed message and per retry. */
  readonly status: StatusSink;
  readonly log: Log;
}

/** Why the executor did not start. Nothing is left running. */
export type CloudExecutorStartError =
  | { readonly _tag: 'CodexHomeUnusable'; readonly reason: string }
  | { readonly _tag: 'CodexHomeNotPrepared'; readonly reason: string }
  | { readonly _tag: 'RecoveryFailed'; readonly reason: string }
  | { readonly _tag: 'AppServerDidNotStart'; readonly reason: string };

/** A running cloud executor. */
export interface CloudExecutor {
  /** The homes its transactions work in. */
  readonly homes: Homes;
  /** Its app-server. */
  readonly runtime: AppServerRuntime;
  /** Processes one message line after those before it; resolves with the status line it wrote. */
  handle(line: string): Promise<StatusLine>;
  /** Handles every line of `source` until it ends, then waits for the work in progress. */
  run(source: DesiredStateSource): Promise<void>;
  /** Stops retries and the app-server (after the work in progress). Safe to call more than once. */
  dispose(): Promise<void>;
}

/** A committed change and what the running app-server needs for it (`null`: nothing on the Codex side changed). */
interface Applied {
  readonly decision: HotReloadDecision | null;
}

/** Starts the executor: home, recovery, app-server. */
export async function startCloudExecutor(options: CloudExecutorOptions): Promise<E.Either<CloudExecutorStartError, CloudExecutor>> {
  const { config, ports, clock, timer, log } = options;
  const home = nodeCodexHome({ executorHome: config.executorHome, userHome: config.userHome, env: options.env });
  if (E.isLeft(home)) return E.left({ _tag: 'CodexHomeUnusable', reason: home.left._tag });
  // No one to ask on a cloud device: a first start with a native ~/.codex takes the default choice.
  const prepared = await home.right.prepareForStart(() => T.of(DEFAULT_MIGRATION_CHOICE))();
  if (E.isLeft(prepared)) return E.left({ _tag: 'CodexHomeNotPrepared', reason: prepared.left._tag });
  const codexHome = home.right.layout.home;
  const homes: Homes = { codexHome, claudeHome: config.claudeHome, stateDirectory: join(codexHome, 'wework-plugins'), runtimeTarget: config.runtimeTarget };
  const recovered = await recoverAll(ports.fs, ports.host, homes)();
  if (E.isLeft(recovered)) return E.left({ _tag: 'RecoveryFailed', reason: recovered.left._tag });
  for (const { plugin, outcome } of recovered.right.plugins) if (outcome._tag !== 'Nothing') log({ event: 'plugin transaction recovered', fields: { plugin, outcome: outcome._tag } });
  const started = await startAppServerRuntime({ codexHome, home: config.userHome, cwd: config.workspace, env: options.env, ...(config.codexPath === null ? {} : { codexPath: config.codexPath }), log });
  if (E.isLeft(started)) return E.left({ _tag: 'AppServerDidNotStart', reason: started.left.reason });
  const runtime = started.right;
  log({ event: 'cloud executor started', fields: { runtimeTarget: config.runtimeTarget } });

  let desired: { readonly revision: number; readonly plugins: ReadonlyArray<DesiredPlugin> } | null = null;
  let schedule: RemovalSchedule = emptySchedule;
  let queue: Promise<unknown> = Promise.resolve();
  let disposed = false;
  const enqueue = <A>(work: () => Promise<A>): Promise<A> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  const emit = (line: StatusLine): StatusLine => {
    options.status(formatStatusLine(line));
    return line;
  };

  const currentManifest = async (): Promise<E.Either<{ readonly _tag: string; readonly detail?: string }, Manifest>> => {
    const manifest = await readManifest(ports.fs, homes)();
    if (E.isRight(manifest)) return manifest;
    return E.left(manifest.left._tag === 'ParseFailed' ? { _tag: manifest.left._tag, detail: manifest.left.detail } : { _tag: manifest.left._tag, detail: manifest.left.code });
  };

  /** Commits one change and works out what the app-server needs for it. */
  const commit = async (plugin: PluginRef, change: () => Promise<E.Either<SyncError, TransactionResult>>): Promise<E.Either<SyncError, { readonly result: TransactionResult; readonly applied: Applied | null }>> => {
    const committed = await commitAndDecide(homes, plugin, change);
    if (E.isLeft(committed)) return committed;
    const { result, decision } = committed.right;
    if (result.outcome !== 'Committed') return E.right({ result, applied: null });
    // decision null: only the Claude side changed (the cleanup of an earlier uninstall): the Codex runtime has nothing to take.
    if (decision === null) return E.right({ result, applied: { decision: null } });
    log({ event: 'plugin change committed', fields: { plugin: pluginKey(plugin), decision: decision._tag, reason: decision._tag === 'Invalidate' ? decision.reason : null } });
    return E.right({ result, applied: { decision } });
  };

  const perform = async (action: Exclude<ReconcileAction, { _tag: 'RemovalDeferred' }>): Promise<{ readonly report: ActionReport; readonly applied: Applied | null }> => {
    const key = pluginKey(action.plugin);
    const at = new Date(clock.now()).toISOString();
    if (action._tag === 'Install') {
      const base = { plugin: key, action: 'install', reason: action.reason, version: action.version } as const;
      const done = await commit(action.plugin, () =>
        commitChange(ports, homes, { _tag: 'Install', plugin: action.plugin, version: action.version, source: directoryPackageSource(action.packagePath), at })(),
      );
      if (E.isLeft(done)) {
        log({ event: 'plugin install failed', fields: { plugin: key, error: done.left._tag } });
        return { report: { ...base, result: 'Failed', error: syncErrorReport(done.left) }, applied: null };
      }
      return { report: { ...base, result: done.right.result.outcome === 'Committed' ? 'Committed' : 'Unchanged' }, applied: done.right.applied };
    }
    const base = { plugin: key, action: 'remove', reason: action.reason } as const;
    const done = await commit(action.plugin, () => commitChange(ports, homes, { _tag: 'Remove', plugin: action.plugin, at })());
    schedule = afterRemovalAttempt(schedule, action.plugin, E.isRight(done), clock.now());
    if (E.isLeft(done)) {
      const state = schedule.get(key);
      const nextAttemptAt = state?._tag === 'Failed' ? state.nextAttemptAt : clock.now();
      log({ event: 'plugin removal failed', fields: { plugin: key, error: done.left._tag, nextAttemptAt } });
      return { report: { ...base, result: 'Failed', error: syncErrorReport(done.left), nextAttemptAt }, applied: null };
    }
    return { report: { ...base, result: done.right.result.outcome === 'Committed' ? 'Committed' : 'Unchanged' }, applied: done.right.applied };
  };

  const restart = async (reason: string): Promise<RuntimeReport> => {
    const restarted = await runtime.restart();
    if (E.isLeft(restarted)) return { _tag: 'RestartFailed', reason: restarted.left.reason };
    log({ event: 'plugin changes applied by restart', fields: { reason } });
    return { _tag: 'Restarted', reason };
  };

  /** One reload in place when every committed change allows it, else one restart. */
  const applyToRuntime = async (applied: ReadonlyArray<Applied>): Promise<RuntimeReport> => {
    const decisions = applied.map((a) => a.decision).filter((d): d is HotReloadDecision => d !== null);
    const server = runtime.current();
    if (server === null) return restart('AppServerNotRunning');
    if (decisions.length === 0) return { _tag: 'NothingToApply' };
    const invalidated = decisions.find((d) => d._tag === 'Invalidate');
    if (invalidated !== undefined && invalidated._tag === 'Invalidate') return restart(invalidated.reason);
    const reloaded = await server.client.request(ConfigBatchWrite, { edits: [], reloadUserConfig: true });
    const next = afterReload(E.isRight(reloaded) ? 'Succeeded' : 'Failed');
    if (next._tag === 'Invalidate') return restart(next.reason);
    const skills = [...new Set(decisions.flatMap((d) => (d._tag === 'Reload' ? d.skills : [])))];
    log({ event: 'plugin changes reloaded in place', fields: { skills } });
    return { _tag: 'Reloaded', skills };
  };

  /** Runs queued work; an unexpected exception becomes a status line, never a crash. */
  const guarded = (trigger: Trigger, revision: number, work: () => Promise<StatusLine>): Promise<StatusLine> =>
    enqueue(() =>
      work().catch((error: unknown) => {
        log({ event: 'reconcile failed unexpectedly', fields: { error: error instanceof Error ? error.name : typeof error } });
        armRetry();
        return emit({ type: 'status', outcome: 'Failed', ok: false, trigger, revision, error: { _tag: 'UnexpectedError' } });
      }),
    );

  function armRetry(): void {
    const at = nextRetryAt(schedule);
    if (at === null || desired === null || disposed) timer.clear();
    else
      timer.set(at, () => {
        const latest = desired;
        if (latest !== null && !disposed) void guarded('retry', latest.revision, () => reconcile('retry', latest));
      });
  }

  const reconcile = async (trigger: Trigger, target: { readonly revision: number; readonly plugins: ReadonlyArray<DesiredPlugin> }): Promise<StatusLine> => {
    const manifest = await currentManifest();
    if (E.isLeft(manifest)) {
      log({ event: 'plugin manifest unreadable', fields: { error: manifest.left._tag } });
      return emit({ type: 'status', outcome: 'Failed', ok: false, trigger, revision: target.revision, error: manifest.left });
    }
    const actions = planReconcile({ desired: target.plugins, manifest: manifest.right, homes, schedule, now: clock.now() });
    schedule = pruneSchedule(schedule, actions);
    const reports: ActionReport[] = [];
    const applied: Applied[] = [];
    for (const action of actions) {
      if (action._tag === 'RemovalDeferred') {
        reports.push({ plugin: pluginKey(action.plugin), action: 'remove', reason: action.reason, result: 'Deferred', nextAttemptAt: action.nextAttemptAt });
        continue;
      }
      const done = await perform(action);
      reports.push(done.report);
      if (done.applied !== null) applied.push(done.applied);
    }
    const runtimeReport = applied.length === 0 && runtime.current() !== null ? ({ _tag: 'NothingToApply' } as const) : await applyToRuntime(applied);
    armRetry();
    return emit({ type: 'status', outcome: 'Reconciled', ok: allDone(reports, runtimeReport), trigger, revision: target.revision, actions: reports, runtime: runtimeReport });
  };

  const handle = (line: string): Promise<StatusLine> =>
    guarded('message', desired?.revision ?? -1, async () => {
      const message = decodeMessage(line);
      if (E.isLeft(message)) {
        log({ event: 'sync message rejected', fields: { error: message.left._tag } });
        return emit({ type: 'status', outcome: 'Rejected', ok: false, error: message.left });
      }
      if (desired !== null && message.right.revision < desired.revision)
        return emit({ type: 'status', outcome: 'Ignored', ok: true, revision: message.right.revision, reason: 'StaleRevision', appliedRevision: desired.revision });
      desired = { revision: message.right.revision, plugins: message.right.plugins };
      return reconcile('message', desired);
    });

  let disposing: Promise<void> | null = null;
  return E.right({
    homes,
    runtime,
    handle,
    run: async (source) => {
      for await (const line of source) {
        if (disposed) break;
        if (line.trim() === '') continue;
        void handle(line);
      }
      await queue;
    },
    dispose: () => {
      disposing ??= (async () => {
        disposed = true;
        timer.clear();
        await queue;
        await runtime.dispose();
        log({ event: 'cloud executor stopped', fields: {} });
      })();
      return disposing;
    },
  });
}
