/**
 * Why running a bridge command gave no usable status, as one `_tag`ged union. Pure values.
 *
 * Every error names the connector and the command (`health`, `start`, `poll`, `logout`) and carries a
 * `message` that is safe to log: no stdout, no stderr, no status values, only field names and numbers.
 */

/** The bridge commands a connector declares. */
export type BridgeInvocationName = 'health' | 'start' | 'poll' | 'logout';

interface Origin {
  readonly connector: string;
  readonly command: BridgeInvocationName;
  readonly message: string;
}

/** The program could not be started (missing, not executable, outside the plugin root). */
export interface BridgeSpawnFailed extends Origin {
  readonly _tag: 'BridgeSpawnFailed';
  /** An OS error code such as `ENOENT`, or `OUTSIDE_PLUGIN_ROOT`. */
  readonly code: string;
}
/** The command ran past its timeout; its whole process tree was terminated. */
export interface BridgeTimedOut extends Origin {
  readonly _tag: 'BridgeTimedOut';
  readonly timeoutMs: number;
}
/** The command was cancelled; its whole process tree was terminated. */
export interface BridgeCancelled extends Origin {
  readonly _tag: 'BridgeCancelled';
}
/** The command exited with a non-zero code or was killed by a signal. */
export interface BridgeExited extends Origin {
  readonly _tag: 'BridgeExited';
  readonly exitCode: number | null;
  readonly signal: string | null;
}
/** The command printed nothing. */
export interface NoStatusObject extends Origin {
  readonly _tag: 'NoStatusObject';
}
/** The command printed more than one JSON object. */
export interface MultipleStatusObjects extends Origin {
  readonly _tag: 'MultipleStatusObjects';
  readonly count: number;
}
/** The command printed something that is not one valid status object. */
export interface MalformedStatus extends Origin {
  readonly _tag: 'MalformedStatus';
}
/** The status carried credential-like fields; it was refused and its content dropped. */
export interface CredentialInStatus extends Origin {
  readonly _tag: 'CredentialInStatus';
  /** Field paths (key names and indexes only). */
  readonly fields: readonly string[];
}
/** The command printed more than the stdout bound; it was terminated. */
export interface OutputTooLarge extends Origin {
  readonly _tag: 'OutputTooLarge';
  readonly limitBytes: number;
}
/** The process tree could not be fully terminated. */
export interface TreeSurvived extends Origin {
  readonly _tag: 'TreeSurvived';
  readonly survivors: number;
}

/** Everything that can go wrong running one bridge command. */
export type BridgeError =
  | BridgeSpawnFailed
  | BridgeTimedOut
  | BridgeCancelled
  | BridgeExited
  | NoStatusObject
  | MultipleStatusObjects
  | MalformedStatus
  | CredentialInStatus
  | OutputTooLarge
  | TreeSurvived;

interface At {
  readonly connector: string;
  readonly command: BridgeInvocationName;
}

const where = (at: At): string => `${at.command} command of connector "${at.connector}"`;

/** Constructors of {@link BridgeError} values with their log-safe messages. */
export const bridgeError = {
  spawnFailed: (at: At, code: string): BridgeSpawnFailed => ({
    _tag: 'BridgeSpawnFailed', connector: at.connector, command: at.command, code, message: `The ${where(at)} could not be started (${code}).`,
  }),
  timedOut: (at: At, timeoutMs: number): BridgeTimedOut => ({
    _tag: 'BridgeTimedOut', connector: at.connector, command: at.command, timeoutMs, message: `The ${where(at)} did not finish within ${timeoutMs} ms and was terminated.`,
  }),
  cancelled: (at: At): BridgeCancelled => ({ _tag: 'BridgeCancelled', connector: at.connector, command: at.command, message: `The ${where(at)} was cancelled.` }),
  exited: (at: At, exitCode: number | null, signal: string | null): BridgeExited => ({
    _tag: 'BridgeExited', connector: at.connector, command: at.command, exitCode, signal,
    message: `The ${where(at)} failed (${signal === null ? `exit code ${exitCode}` : `signal ${signal}`}).`,
  }),
  noStatusObject: (at: At): NoStatusObject => ({ _tag: 'NoStatusObject', connector: at.connector, command: at.command, message: `The ${where(at)} printed no status object.` }),
  multipleStatusObjects: (at: At, count: number): MultipleStatusObjects => ({
    _tag: 'MultipleStatusObjects', connector: at.connector, command: at.command, count, message: `The ${where(at)} printed ${count} JSON values; exactly one status object is expected.`,
  }),
  malformedStatus: (at: At, detail: string): MalformedStatus => ({
    _tag: 'MalformedStatus', connector: at.connector, command: at.command, message: `The ${where(at)} printed no valid status object: ${detail}.`,
  }),
  credentialInStatus: (at: At, fields: readonly string[]): CredentialInStatus => ({
    _tag: 'CredentialInStatus', connector: at.connector, command: at.command, fields,
    message: `The ${where(at)} printed credential-like data (${fields.join(', ')}); the status was refused and not kept.`,
  }),
  outputTooLarge: (at: At, limitBytes: number): OutputTooLarge => ({
    _tag: 'OutputTooLarge', connector: at.connector, command: at.command, limitBytes, message: `The ${where(at)} printed more than ${limitBytes} bytes and was terminated.`,
  }),
  treeSurvived: (at: At, survivors: number): TreeSurvived => ({
    _tag: 'TreeSurvived', connector: at.connector, command: at.command, survivors, message: `${survivors} process(es) of the ${where(at)} could not be terminated.`,
  }),
} as const;
