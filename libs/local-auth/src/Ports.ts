/**
 * The ports through which the pure core reaches processes and tools. `@wework/local-auth/node`
 * implements them for Node; tests and hosts may implement them however they like. Time is the
 * `Timers` port of `@wework/ports` (re-exported by the barrel).
 */
import type * as E from 'fp-ts/lib/Either.js';
import type { BridgeCommand } from './Command.js';
import type { BridgeError, BridgeInvocationName } from './BridgeError.js';
import type { BridgeStatus } from './BridgeStatus.js';
import type { ToolSource } from './LocalAuthManifest.js';
import type { ToolError } from './ManagedTool.js';

/** Timeout of every health command, as the spec fixes it: 45 seconds. */
export const HEALTH_TIMEOUT_MS = 45_000;

/** Timeout of one QR `poll` (a poll must not block): 15 seconds. */
export const POLL_TIMEOUT_MS = 15_000;

/** Name of the environment variable through which a bridge learns the path of its connector's tool. */
export const TOOL_PATH_ENV = 'WEWORK_LOCAL_AUTH_TOOL';

/** One run of a bridge command. */
export interface BridgeInvocation {
  readonly connector: string;
  readonly command: BridgeInvocationName;
  /** Absolute path of the synchronised plugin on this device; the command runs there. */
  readonly pluginRoot: string;
  readonly argv: BridgeCommand;
  /** The process tree is terminated when this elapses. */
  readonly timeoutMs: number;
  /** The connector's resolved tool, given to the bridge as {@link TOOL_PATH_ENV}. */
  readonly toolPath?: string;
  /** Aborting terminates the process tree; the run then resolves `BridgeCancelled`. */
  readonly signal?: AbortSignal;
  /** Called once the process has started. */
  readonly onSpawn?: () => void;
}

/**
 * Runs one bridge command without a shell and reads its one status object. Never rejects: every
 * failure is a {@link BridgeError}.
 */
export interface BridgeRunner {
  run(invocation: BridgeInvocation): Promise<E.Either<BridgeError, BridgeStatus>>;
}

/** Makes a connector's tool available on this device and returns its executable's absolute path. */
export interface ToolResolver {
  resolve(tool: ToolSource, signal?: AbortSignal): Promise<E.Either<ToolError, string>>;
}

/** Log records the core emits; they carry identities, states and error tags, never bridge output. */
export interface AuthLogRecord {
  readonly event: string;
  readonly connector?: string;
  readonly pluginKey?: string;
  readonly detail?: string;
}

/** Where {@link AuthLogRecord}s go. */
export type AuthLogger = (record: AuthLogRecord) => void;
