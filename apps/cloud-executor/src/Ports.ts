/**
 * What the cloud executor needs from outside, as ports: where desired-state messages come from, where
 * status lines go and a structured log; the time and the one timer for removal retries are the `Clock`
 * and `Timer` of `@wework/ports`. The Node implementations (stdin/stdout, stderr) are in `node/`, those
 * of the time in `@wework/ports/node`; tests inject fakes.
 */

/** Desired-state messages as they arrive: one untrusted text line each. The executor ends with the source. */
export type DesiredStateSource = AsyncIterable<string>;

/** Where status lines go (one JSON object per processed message or retry). */
export type StatusSink = (line: string) => void;

/** One structured log entry: a stable event name and fields (never secrets or file contents). */
export interface LogEntry {
  readonly event: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Where log entries go. */
export type Log = (entry: LogEntry) => void;

/** Formats an entry as one line: `event key=value ...` with JSON values. */
export const formatLogEntry = (entry: LogEntry): string =>
  [entry.event, ...Object.entries(entry.fields).map(([key, value]) => `${key}=${JSON.stringify(value)}`)].join(' ');
