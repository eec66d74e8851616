/**
 * The first, light stage of an executor start: the executor home locked for this process (one executor
 * per home), the Wework Codex home prepared (config.toml normalized,
 * native login linked) and the app-server process launched, not yet connected. It loads only the
 * Codex home library and the light launch entry of the app-server client, so Codex boots in its own
 * process while the executor loads the rest of itself; `startExecutor` then adopts the process.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as T from 'fp-ts/lib/Task.js';
import type { LaunchedAppServer } from '@wework/app-server-client/node/launch';
import { DEFAULT_MIGRATION_CHOICE, type CodexHome, type MigrationChoice } from '@wework/codex-home';
import { nodeCodexHome } from '@wework/codex-home/node';
import { describeHomeLockError, lockExecutorHome } from '../home/ExecutorHomeLock.js';
import { describeHomePreparationError, prepareCodexHome } from '../home/prepareCodexHome.js';
import type { Log } from '@wework/ports';
import { launchRuntimeProcess } from './launchRuntimeProcess.js';
import { pluginHomesOf, recoverPluginHomes, type PluginRepairs } from '../plugins/PluginDirectoryRecovery.js';

/** What the launch stage needs. */
export interface ExecutorLaunchOptions {
  /** The executor's own directory; the Codex home is its `codex` child unless `WEGENT_CODEX_HOME` says otherwise. */
  readonly executorHome: string;
  /** The user's home (where a native `~/.codex` would be). */
  readonly userHome: string;
  /** The workspace of threads whose task names none. */
  readonly workspace: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Log;
  /**
   * The user's answer to the first-start question (asked by the host before launching); used only on a
   * first start with a native `~/.codex`. Default {@link DEFAULT_MIGRATION_CHOICE}.
   */
  readonly firstStart?: MigrationChoice;
  /** A Codex binary or npm wrapper script to run instead of the installed `@openai/codex` (`--codex`, `WEWORK_CODEX_PATH`). */
  readonly codexPath?: string;
}

/**
 * Why the launch stage did not start: `HomeLocked` when another executor runs on the executor home (the
 * serve entry exits with `HOME_LOCKED_EXIT_CODE`), `LaunchFailed` otherwise; `message` is a sentence
 * for a person, naming no secret.
 */
export interface ExecutorLaunchError {
  readonly _tag: 'HomeLocked' | 'LaunchFailed';
  readonly message: string;
}

const launchFailed = (message: string): ExecutorLaunchError => ({ _tag: 'LaunchFailed', message });

/** A prepared Codex home and the app-server process started in it. */
export interface ExecutorLaunch {
  readonly home: CodexHome;
  readonly appServer: LaunchedAppServer;
  /** The plugins start-up recovery could not recover (shown `repairRequired` until a sync repairs them). */
  readonly pluginRepairs: PluginRepairs;
}

/**
 * Locks the executor home (refused when another executor runs on it), prepares the Codex home,
 * recovers the plugin homes (interrupted transactions, moved or incomplete managed directories), then
 * launches the app-server in it; on failure nothing is left running.
 */
export async function launchExecutor(options: ExecutorLaunchOptions): Promise<E.Either<ExecutorLaunchError, ExecutorLaunch>> {
  // The one place the executor home is locked: every start (the serve entry's, or an in-process one) passes here.
  const locked = await lockExecutorHome(options.executorHome);
  if (E.isLeft(locked)) return E.left({ _tag: locked.left._tag === 'ProcessLockHeld' ? 'HomeLocked' : 'LaunchFailed', message: describeHomeLockError(locked.left) });
  const home = nodeCodexHome({ executorHome: options.executorHome, userHome: options.userHome, env: options.env });
  if (E.isLeft(home)) return E.left(launchFailed(`the Codex home cannot be used (${home.left._tag})`));
  // The host asked the user before launching (no host is connected yet); without an answer, the default.
  const prepared = await prepareCodexHome(home.right, () => T.of(options.firstStart ?? DEFAULT_MIGRATION_CHOICE), options.log);
  if (E.isLeft(prepared)) return E.left(launchFailed(describeHomePreparationError(prepared.left)));
  // The one start-up recovery of the plugin homes: after the home (and so the manifest) is in place,
  // before Codex starts reading plugin caches and before any backend connection.
  const pluginRepairs = await recoverPluginHomes(pluginHomesOf(options.executorHome, home.right.layout.home), options.env, options.log);
  const appServer = await launchRuntimeProcess({ codexHome: home.right.layout.home, home: options.userHome, workspace: options.workspace, env: options.env, ...(options.codexPath === undefined ? {} : { codexPath: options.codexPath }) });
  if (E.isLeft(appServer)) {
    // Loaded only when the launch failed: its description comes with the client's error descriptions.
    const { describeRuntimeError } = await import('./RuntimeError.js');
    return E.left(launchFailed(describeRuntimeError(appServer.left)));
  }
  return E.right({ home: home.right, appServer: appServer.right, pluginRepairs });
}
