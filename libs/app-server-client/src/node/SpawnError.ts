/**
 * Why `spawnAppServer` could not hand out a running, initialized app-server, as one `_tag`ged union.
 */
import type { ClientError } from '../ClientError.js';

/** `CODEX_HOME` does not exist or is not a directory (the app-server would exit at once). */
export interface CodexHomeMissing {
  readonly _tag: 'CodexHomeMissing';
  readonly path: string;
}

/** No `codex` executable could be resolved from the installed `@openai/codex` package. */
export interface CodexNotFound {
  readonly _tag: 'CodexNotFound';
  readonly message: string;
}

/** The operating system refused to start the process (for example ENOENT, EACCES). */
export interface SpawnFailed {
  readonly _tag: 'SpawnFailed';
  readonly command: string;
  readonly message: string;
}

/** The process started, but `initialize` failed (it answered with an error, or exited). */
export interface InitializeFailed {
  readonly _tag: 'InitializeFailed';
  readonly error: ClientError;
  readonly stderrTail: string;
}

/** The process started, but did not answer `initialize` in time. */
export interface InitializeTimedOut {
  readonly _tag: 'InitializeTimedOut';
  readonly timeoutMs: number;
  readonly stderrTail: string;
}

/** Any error of `spawnAppServer`. */
export type SpawnError = CodexHomeMissing | CodexNotFound | SpawnFailed | InitializeFailed | InitializeTimedOut;
