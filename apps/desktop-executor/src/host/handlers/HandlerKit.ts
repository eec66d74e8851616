/**
 * What the executor's handler areas share: the services behind them, the per-connection context of a
 * call, the reply of each family of typed error (a wire code, a sentence for a person, the error's tag),
 * and the steps every area repeats (the running app-server or `RuntimeUnavailable`, a marketplace page's
 * errors). Nothing here knows about JSON-RPC.
 */
import * as E from 'fp-ts/lib/Either.js';
import { runAgain, type EmptyResult, type HostFailure, type HostNotificationParamsOf, type SkillWorkspace } from '@wework/host-protocol';
import type { ConnectorIdentity, RecoveryContinuation, RecoveryError } from '@wework/local-auth';
import type { TurnImageStore } from '@wework/image-preprocess/node';
import type { AccountService } from '../../accounts/AccountService.js';
import type { Log } from '@wework/ports';
// The replies of the typed errors come from `@wework/host-errors` (one mapping, property-tested): no handler builds a message from an error's text.
import { hostFailure, marketplaceFailure, runtimeFailure, taskFailure, type MarketplaceFault } from '@wework/host-errors';
import type { LocalRuntime } from '../../runtime/LocalRuntime.js';
import { modelCatalogCache, type ModelCatalogCache } from '../../runtime/ModelCatalogCache.js';
import type { WegentRuntimeToken } from '../../runtime/WegentRuntimeToken.js';
import type { RuntimeSupervisor } from '../../runtime/RuntimeSupervisor.js';
import type { RuntimeWaiters } from '../../runtime/RuntimeWaiters.js';
import type { TaskInspector } from '../../inspection/TaskInspector.js';
import type { TaskRuntime } from '../../tasks/TaskRuntime.js';
import type { PluginService } from '../PluginService.js';
import type { MarketplacePages } from '../../plugins/MarketplacePages.js';
import type { PluginManagement } from '../../plugins/PluginManagement.js';
import type { PluginInventory } from '../../plugins/PluginInventory.js';
import type { BundledPlugins } from '../../plugins/BundledPlugins.js';
import { openGate, type MutationGate } from '../../plugins/MutationGate.js';
import type { HostSession, HostSessions } from '../HostSessions.js';

/** The per-connection context of a call: the host session that sent it (`null` for a call from inside the executor). */
export interface HostCall {
  readonly session: HostSession | null;
}

/** The services behind the handlers. */
export interface ExecutorServices {
  readonly runtime: RuntimeSupervisor;
  /** Requests that need Codex wait here while the app-server restarts (`@wework/host-protocol`'s waiting rule). */
  readonly waiters: RuntimeWaiters;
  readonly tasks: TaskRuntime;
  readonly accounts: AccountService;
  readonly plugins: PluginService;
  readonly inspector: TaskInspector;
  /** The connected hosts: cards go to the sender of a task's message, notifications to every host. */
  readonly sessions: HostSessions;
  /** The turn image store, loaded on first use (it loads the image codec library). */
  readonly images: () => Promise<TurnImageStore>;
  /** Connector logins shown to the host; `cancel` answers whether the session was open. */
  readonly authorizations?: { cancel(sessionId: string): boolean };
  /** Runtime authorization recovery of a connector (login shown through `authorizations`). */
  readonly recoverConnector?: (blocked: ConnectorIdentity & { readonly toolName?: string | undefined }) => Promise<E.Either<RecoveryError, RecoveryContinuation>>;
  /** Tells the hosts that the inventory changed (`inventory/changed`). */
  readonly inventoryChanged: (change: HostNotificationParamsOf<'inventory/changed'>['change'], pluginId: string | null) => void;
  /** The installed inventory and its management (loaded with the plugin machinery). */
  readonly pluginInventory: () => Promise<{ readonly inventory: PluginInventory; readonly management: PluginManagement }>;
  /** The Wegent runtime token (in memory only). */
  readonly wegentToken: WegentRuntimeToken;
  readonly log: Log;
  /** The marketplaces, catalogs and plugin details of the plugin pages. */
  readonly marketplaces?: MarketplacePages;
  /** The plugins bundled with the desktop app (background upgrades); none when absent. */
  readonly bundled?: BundledPlugins;
  /** The home's mutation gate: turns run through it, so they wait only while a plugin mutation runs. */
  readonly gate?: MutationGate;
}

/** A handler's answer. */
export type Answer<A> = Promise<E.Either<HostFailure, A>>;

/** A success. */
export const ok = <A>(value: A): E.Either<HostFailure, A> => E.right(value);
/** The success of the requests that answer nothing but success. */
export const empty = (): E.Either<HostFailure, EmptyResult> => E.right({});

/** What every area is built with: the services, and the steps the areas share. */
export interface HandlerKit {
  readonly services: ExecutorServices;
  readonly gate: MutationGate;
  /** The model catalog sends are checked against: one for the executor, refreshed when it can change. */
  readonly catalogCache: ModelCatalogCache;
  /**
   * The running runtime: at once, or after waiting (bounded) for a restarting or starting one; else the
   * `RuntimeUnavailable` reply (`failed`, or the bound passed) or the `TooManyWaiting` one. Nothing is
   * forwarded to a dead app-server.
   */
  codex(): Promise<E.Either<HostFailure, LocalRuntime>>;
  /**
   * Runs `answer` once the app-server runs (waiting for it as {@link HandlerKit.codex} does). A run it
   * answered `-32012` retryable (the app-server ended before answering, nothing done in Codex) is run
   * again once another app-server is ready, up to the rule's `maxRuns`.
   */
  withCodex<P extends unknown[], A>(answer: (...params: P) => Answer<A>): (...params: P) => Answer<A>;
  /** The folder a skills request is about: the task's workspace, the given `cwd`, or the app-server's own (`null`). */
  skillWorkspace(workspace: SkillWorkspace): E.Either<HostFailure, string | null>;
  /** Runs a marketplace page's request; its typed errors become replies with the marketplace codes. */
  marketplacePage<A>(run: (pages: MarketplacePages) => Promise<E.Either<MarketplaceFault, A>>): Answer<A>;
  /** Tells the catalogs that the signed-in account changed: cached metadata and fetches in flight belong to the old one. */
  accountChanged(): void;
}

/** The kit over `services`. */
export function handlerKit(services: ExecutorServices): HandlerKit {
  const { tasks, log } = services;
  const catalogCache = modelCatalogCache();
  const ready = async (gone?: LocalRuntime): Promise<E.Either<HostFailure, LocalRuntime>> => E.mapLeft(runtimeFailure)(await services.waiters.ready(gone));
  const codex = (): Promise<E.Either<HostFailure, LocalRuntime>> => ready();
  return {
    services,
    gate: services.gate ?? openGate,
    catalogCache,
    codex,
    withCodex:
      <P extends unknown[], A>(answer: (...params: P) => Answer<A>) =>
      async (...params: P): Answer<A> => {
        let gone: LocalRuntime | undefined;
        for (let runs = 1; ; runs++) {
          const running = await ready(gone);
          if (E.isLeft(running)) return running;
          const answered = await answer(...params);
          if (E.isRight(answered) || !runAgain(services.waiters.config, { code: answered.left.code, retryable: answered.left.retryable }, runs)) return answered;
          // The app-server ended under the run before it answered: run it again on the next one.
          log({ event: 'request run again after the app-server ended', fields: { runs, tag: answered.left.tag } });
          gone = running.right;
        }
      },
    skillWorkspace: ({ taskId, cwd }) => {
      if (taskId === undefined) return E.right(cwd ?? null);
      const task = tasks.get(taskId);
      return task === undefined ? E.left(taskFailure({ _tag: 'TaskNotFound', taskId })) : E.right(task.executionRequest.workspace);
    },
    marketplacePage: async (run) => {
      const pages = services.marketplaces;
      if (pages === undefined) return E.left(hostFailure({ area: 'unavailable', error: { _tag: 'NotAvailable', service: 'marketplaces' } }));
      return E.mapLeft(marketplaceFailure)(await run(pages));
    },
    accountChanged: () => {
      services.marketplaces?.official.accountChanged();
      catalogCache.accountChanged();
    },
  };
}
