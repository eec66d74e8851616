/**
 * Starts the runtime's `codex app-server` process without connecting to it. Loads only the light
 * launch entry of the app-server client, so the executor can start Codex before it loads the client,
 * the protocol codecs and the rest of itself, and connect once both are ready.
 */
import * as E from 'fp-ts/lib/Either.js';
import { launchAppServer, type LaunchedAppServer } from '@wework/app-server-client/node';
import type { RuntimeError } from './RuntimeError.js';

/** What the process needs: the homes, the workspace and the environment (the first options of a local runtime). */
export interface RuntimeProcessOptions {
  /** An existing CODEX_HOME whose config.toml the caller has written. */
  readonly codexHome: string;
  readonly home: string;
  /** The task's workspace: the threads' cwd. */
  readonly workspace: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Launches the app-server process of a local runtime; `startLocalRuntime` connects it. */
export async function launchRuntimeProcess(options: RuntimeProcessOptions): Promise<E.Either<RuntimeError, LaunchedAppServer>> {
  const launched = await launchAppServer({ codexHome: options.codexHome, home: options.home, cwd: options.workspace, env: options.env });
  return E.isLeft(launched) ? E.left({ _tag: 'AppServerDidNotStart', reason: launched.left._tag }) : launched;
}
