/**
 * The executor's one app-server, supervised by `@wework/app-server-client`'s `superviseAppServer` (the
 * same implementation the desktop executor runs on): started once, started again with backoff when it
 * ends unexpectedly (up to the crash-loop limit, then `failed`), restarted on purpose when a committed
 * plugin change cannot be reloaded in place, disposed at the end. Every change of state is logged. A
 * failed restart leaves no process; the next restart tries again.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { RestartPolicyConfig } from '@wework/app-server-client';
import { checkCodexVersion, describeCodexVersionCheck } from '@wework/app-server-client';
import { superviseAppServer, type RuntimeStatus, type SpawnedAppServer, type SpawnError } from '@wework/app-server-client/node';
import type { Log } from '@wework/ports';

/** Options of {@link startAppServerRuntime}. */
export interface AppServerRuntimeOptions {
  /** `CODEX_HOME` of the app-server (prepared before). */
  readonly codexHome: string;
  /** `HOME` of the app-server. */
  readonly home: string;
  /** Working directory of the app-server. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A Codex binary or npm wrapper script to run instead of the installed `@openai/codex`. */
  readonly codexPath?: string;
  readonly log: Log;
  /** Default `DEFAULT_RESTART_POLICY` of the client library. */
  readonly policy?: RestartPolicyConfig;
}

/** The app-server did not start. */
export interface AppServerDidNotStart {
  readonly _tag: 'AppServerDidNotStart';
  readonly reason: SpawnError['_tag'] | 'ShuttingDown' | 'Restarting' | 'Failed';
}

/** The running app-server, supervised and restartable. */
export interface AppServerRuntime {
  /** The running app-server, or `null` while it restarts, after it failed, or after a failed restart. */
  current(): SpawnedAppServer | null;
  /** The supervisor's state, with the reason and a secret-free stderr tail. */
  status(): RuntimeStatus;
  /** Stops the app-server (if any) and starts a new one with the same options. */
  restart(): Promise<E.Either<AppServerDidNotStart, SpawnedAppServer>>;
  dispose(): Promise<void>;
}

const unavailable = (status: RuntimeStatus): AppServerDidNotStart => ({
  _tag: 'AppServerDidNotStart',
  reason: status.state === 'stopped' ? 'ShuttingDown' : status.state === 'failed' ? 'Failed' : 'Restarting',
});

/** Starts the app-server under supervision. */
export async function startAppServerRuntime(options: AppServerRuntimeOptions): Promise<E.Either<AppServerDidNotStart, AppServerRuntime>> {
  const supervised = await superviseAppServer({
    launch: { codexHome: options.codexHome, home: options.home, cwd: options.cwd, env: options.env, ...(options.codexPath === undefined ? {} : { codexPath: options.codexPath }) },
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    onServer: (server) => {
      const version = checkCodexVersion(server.initializeResult.userAgent);
      options.log({ event: 'app-server started', fields: { pid: server.pid, codex: version._tag === 'Unknown' ? null : version.version } });
      if (version._tag !== 'Supported') options.log({ event: 'codex version not supported', level: 'warn', fields: { check: describeCodexVersionCheck(version) } });
    },
  });
  if (E.isLeft(supervised)) {
    options.log({ event: 'app-server did not start', fields: { reason: supervised.left._tag } });
    return E.left({ _tag: 'AppServerDidNotStart', reason: supervised.left._tag });
  }
  const app = supervised.right;
  app.onStatus((status) => options.log({ event: `app-server ${status.state}`, fields: { reason: status.reason, crashes: status.crashes, retryInMs: status.retryInMs, stderrTail: status.stderrTail } }));
  return E.right({
    current: () => app.current(),
    status: () => app.status(),
    restart: async () => {
      const restarted = await app.restart();
      return E.isLeft(restarted) ? E.left(unavailable(restarted.left.status)) : restarted;
    },
    dispose: () => app.dispose(),
  });
}
