/**
 * Follows the startup of the app-server's MCP servers (`mcpServer/startupStatus/updated`), so a host can
 * wait until its plugins are ready before the first turn: Codex starts them with the thread and may
 * otherwise sample the model before a plugin's tools are listed.
 */
import * as E from 'fp-ts/lib/Either.js';
import { McpServerStartupStatusUpdated, type ParamsOf } from '@wework/codex-protocol';
import type { AppServerClient } from './AppServerClient.js';
import type { Disposable } from './internal/ListenerSet.js';
import { onClosed } from './onClosed.js';

/** The latest startup report of one MCP server. */
export type McpServerStartup = ParamsOf<typeof McpServerStartupStatusUpdated>;

/** Why {@link McpStartupTracker.whenSettled} did not end with every server ready. */
export type McpStartupError =
  | { readonly _tag: 'McpServersNotReady'; readonly pending: ReadonlyArray<string>; readonly timeoutMs: number }
  | { readonly _tag: 'McpServersFailed'; readonly failed: ReadonlyArray<McpServerStartup> }
  /**
   * The wait ended before every server settled and before its timeout: the client ended (`ClientEnded`:
   * no report can come any more) or the tracker was disposed (`Disposed`).
   */
  | { readonly _tag: 'McpStartupAbandoned'; readonly pending: ReadonlyArray<string>; readonly cause: 'ClientEnded' | 'Disposed' };

/** Follows MCP server startup reports from the moment it is created. */
export interface McpStartupTracker extends Disposable {
  /** The latest report per server name. */
  readonly latest: ReadonlyMap<string, McpServerStartup>;
  /**
   * Resolves once every named server has settled (`ready`, `failed` or `cancelled`), or after
   * `timeoutMs` on the client's `timers`: `Right` when all are ready, otherwise the typed reason. It also
   * resolves, with `McpStartupAbandoned`, as soon as the client ends or the tracker is disposed, so no wait
   * outlives either.
   */
  whenSettled(names: ReadonlyArray<string>, timeoutMs: number): Promise<E.Either<McpStartupError, ReadonlyArray<McpServerStartup>>>;
}

const isSettled = (startup: McpServerStartup | undefined): boolean => startup !== undefined && startup.status !== 'starting';

/** Describes an {@link McpStartupError} for a person. */
export function describeMcpStartupError(error: McpStartupError): string {
  switch (error._tag) {
    case 'McpServersNotReady':
      return `MCP servers not ready within ${error.timeoutMs} ms: ${error.pending.join(', ')}`;
    case 'McpServersFailed':
      return `MCP servers failed to start: ${error.failed.map((s) => `${s.name} (${s.status}${s.error === null ? '' : `: ${s.error}`})`).join(', ')}`;
    case 'McpStartupAbandoned':
      return `MCP servers not ready: ${error.cause === 'ClientEnded' ? 'the app-server connection ended first' : 'the wait was given up'}: ${error.pending.join(', ')}`;
  }
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
  /** The waits not over yet: each checks on a report, or ends at once when abandoned. */
  const waits = new Set<{ readonly check: () => void; readonly abandon: (cause: AbandonCause) => void }>();
  /** Why no wait can settle normally any more, once the client ended or the tracker was disposed. */
  let over: AbandonCause | undefined;
  const subscription = client.on(McpServerStartupStatusUpdated, (params) => {
    latest.set(params.name, params);
    for (const wait of [...waits]) wait.check();
  });
  const abandonAll = (cause: AbandonCause): void => {
    over ??= cause;
    for (const wait of [...waits]) wait.abandon(cause);
  };
  const clientEnd = onClosed(client, () => abandonAll('ClientEnded'));
  const pendingOf = (names: ReadonlyArray<string>): ReadonlyArray<string> => names.filter((name) => !isSettled(latest.get(name)));
  const outcome = (names: ReadonlyArray<string>, timeoutMs: number): E.Either<McpStartupError, ReadonlyArray<McpServerStartup>> => {
    const pending = pendingOf(names);
    if (pending.length > 0) return E.left({ _tag: 'McpServersNotReady', pending, timeoutMs });
    const reports = names.flatMap((name) => latest.get(name) ?? []);
    const failed = reports.filter((report) => report.status !== 'ready');
    return failed.length > 0 ? E.left({ _tag: 'McpServersFailed', failed }) : E.right(reports);
  };
  const abandoned = (names: ReadonlyArray<string>, timeoutMs: number, cause: AbandonCause): E.Either<McpStartupError, ReadonlyArray<McpServerStartup>> => {
    const pending = pendingOf(names);
    return pending.length > 0 ? E.left({ _tag: 'McpStartupAbandoned', pending, cause }) : outcome(names, timeoutMs);
  };
  return {
    latest,
    whenSettled: (names, timeoutMs) =>
      new Promise((resolve) => {
        if (over !== undefined) return resolve(abandoned(names, timeoutMs, over));
        const end = (result: E.Either<McpStartupError, ReadonlyArray<McpServerStartup>>): void => {
          waits.delete(wait);
          cancelTimeout();
          resolve(result);
        };
        const wait = {
          check: (): void => {
            if (pendingOf(names).length === 0) end(outcome(names, timeoutMs));
          },
          abandon: (cause: AbandonCause): void => end(abandoned(names, timeoutMs, cause)),
        };
        const cancelTimeout = client.timers.after(timeoutMs, () => end(outcome(names, timeoutMs)));
        waits.add(wait);
        wait.check();
      }),
    dispose: () => {
      subscription.dispose();
      clientEnd.dispose();
      abandonAll('Disposed');
    },
  };
}

type AbandonCause = Extract<McpStartupError, { readonly _tag: 'McpStartupAbandoned' }>['cause'];
