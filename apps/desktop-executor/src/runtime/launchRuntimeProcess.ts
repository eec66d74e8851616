/**
 * Starts the runtime's `codex app-server` process without connecting to it. Loads only the light
 * launch entry of the app-server client, so the executor can start Codex before it loads the client,
 * the protocol codecs and the rest of itself, and connect once both are ready.
 */
import * as E from 'fp-ts/lib/Either.js';
import { launchAppServer, type LaunchAppServerOptions, type LaunchedAppServer } from '@wework/app-server-client/node/launch';
import { WEGENT_RUNTIME_TOKEN_ENV } from '@wework/host-protocol/environment';
import type { RuntimeFault } from '@wework/host-errors';

/**
 * Variables of the executor's environment the app-server never gets. Codex 0.171.0 passes its whole
 * environment to the commands it runs (`shell_environment_policy` defaults to `inherit = "all"` with
 * `ignore_default_excludes = true`), so these would reach every command: the device connection's token
 * (`WEGENT_AUTH_TOKEN`, the executor's own credential), and a `WEGENT_RUNTIME_AUTH_TOKEN` the executor
 * did not set (commands see that name only with the token of `runtime/setWegentToken`).
 */
export const WITHHELD_FROM_CODEX: ReadonlyArray<string> = ['WEGENT_AUTH_TOKEN', WEGENT_RUNTIME_TOKEN_ENV];

/** `env` without {@link WITHHELD_FROM_CODEX}. */
export const codexProcessEnvironment = (env: Readonly<Record<string, string | undefined>>): Readonly<Record<string, string | undefined>> =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !WITHHELD_FROM_CODEX.includes(name)));

/** What the process needs: the homes, the workspace and the environment (the first options of a local runtime). */
export interface RuntimeProcessOptions {
  /** An existing CODEX_HOME whose config.toml the caller has written. */
  readonly codexHome: string;
  readonly home: string;
  /** The task's workspace: the threads' cwd. */
  readonly workspace: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A Codex binary or npm wrapper script to run instead of the installed `@openai/codex`. */
  readonly codexPath?: string;
}

/** How every app-server process of a runtime is launched, the first and each restart: its homes, the withheld environment, the Codex to run. */
export const runtimeLaunchOptions = (options: RuntimeProcessOptions): LaunchAppServerOptions => ({
  codexHome: options.codexHome,
  home: options.home,
  cwd: options.workspace,
  env: codexProcessEnvironment(options.env),
  ...(options.codexPath === undefined ? {} : { codexPath: options.codexPath }),
});

/** Launches the app-server process of a local runtime; `startLocalRuntime` connects it. */
export async function launchRuntimeProcess(options: RuntimeProcessOptions): Promise<E.Either<RuntimeFault, LaunchedAppServer>> {
  const launched = await launchAppServer(runtimeLaunchOptions(options));
  return E.isLeft(launched) ? E.left({ _tag: 'AppServerDidNotStart', reason: launched.left._tag }) : launched;
}
