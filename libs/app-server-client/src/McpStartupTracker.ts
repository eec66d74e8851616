/**
 * Follows the startup of the app-server's MCP servers (`mcpServer/startupStatus/updated`), so a host can
 * wait until its plugins are ready before the first turn: Codex starts them with the thread and may
 * otherwise sample the model before a plugin's tools are listed.
 */
import * as E from 'fp-ts/lib/Either.js';
import { McpServerStartupStatusUpdated, type ParamsOf } from '@wework/codex-protocol';
import type { AppServerClient } from './AppServerClient.js';
import type { Disposable } from './internal/ListenerSet.js';

/** The latest startup report of one MCP server. */
export type McpServerStartup = ParamsOf<typeof McpServerStartupStatusUpdated>;

/** Why {@link McpStartupTracker.whenSettled} did not end with every server ready. */
export type McpStartupError =
  | { readonly _tag: 'McpServersNotReady'; readonly pending: ReadonlyArray<string>; readonly timeoutMs: number }
  | { readonly _tag: 'McpServersFailed'; readonly failed: ReadonlyArray<McpServerStartup> };

/** Follows MCP server startup reports from the moment it is created. */
export interface McpStartupTracker extends Disposable {
  /** The latest report per server name. */
  readonly latest: ReadonlyMap<string, McpServerStartup>;
  /**
   * Resolves once every named server has settled (`ready`, `failed` or `cancelled`), or after
   * `timeoutMs` on the client's `timers`: `Right` when all are ready, otherwise the typed reason.
   */
  whenSettled(names: ReadonlyArray<string>, timeoutMs: number): Promise<E.Either<McpStartupError, ReadonlyArray<McpServerStartup>>>;
}

const isSettled = (startup: McpServerStartup | undefined): boolean => startup !== undefined && startup.status !== 'starting';

/** Describes an {@link McpStartupError} for a person. */
export function describeMcpStartupError(error: McpStartupError): string {
  return error._tag === 'McpServersNotReady'
    ? `MCP servers not ready within ${error.timeoutMs} ms: ${error.pending.join(', ')}`
    : `MCP servers failed to start: ${error.failed.map((s) => `${s.name} (${s.status}${s.error === null ? '' : `: ${s.error}`})`).join(', ')}`;
}

/**
 * Starts following MCP server startup on a client. Create it before `thread/start` so no report is missed.
 *
 * @example
 * ```ts
 * const startup = trackMcpStartup(client);
 * await client.request(ThreadStart, { cwd });
 * const ready = await startup.whenSettled(['forms'], 30_000);
 * ```
 */
export function trackMcpStartup(client: AppServerClient): McpStartupTracker {
  const latest = new Map<string, McpServerStartup>();
  const waiters = new Set<() => void>();
  const subscription = client.on(McpServerStartupStatusUpdated, (params) => {
    latest.set(params.name, params);
    for (const waiter of waiters) waiter();
  });
  const outcome = (names: ReadonlyArray<string>, timeoutMs: number): E.Either<McpStartupError, ReadonlyArray<McpServerStartup>> => {
    const pending = names.filter((name) => !isSettled(latest.get(name)));
    if (pending.length > 0) return E.left({ _tag: 'McpServersNotReady', pending, timeoutMs });
    const reports = names.flatMap((name) => latest.get(name) ?? []);
    const failed = reports.filter((report) => report.status !== 'ready');
    return failed.length > 0 ? E.left({ _tag: 'McpServersFailed', failed }) : E.right(reports);
  };
  return {
    latest,
    whenSettled: (names, timeoutMs) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (!names.every((name) => isSettled(latest.get(name)))) return;
          finish();
        };
        const finish = (): void => {
          waiters.delete(check);
          cancelTimeout();
          resolve(outcome(names, timeoutMs));
        };
        const cancelTimeout = client.timers.after(timeoutMs, finish);
        waiters.add(check);
        check();
      }),
    dispose: () => {
      subscription.dispose();
      waiters.clear();
    },
  };
}
