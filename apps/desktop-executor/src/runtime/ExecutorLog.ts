/**
 * The executor's structured log: what a person debugging a plugin form needs to see (whether a request
 * reached the executor, how it was answered and why), never secrets or form contents beyond the schema.
 */

/** One log entry. */
export interface ExecutorLogEntry {
  /** A stable, greppable event name, e.g. `codex mcp elicitation request`. */
  readonly event: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Where log entries go. */
export type ExecutorLog = (entry: ExecutorLogEntry) => void;

/** Formats an entry as one line: `event key=value ...` with JSON values. */
export function formatLogEntry(entry: ExecutorLogEntry): string {
  const fields = Object.entries(entry.fields).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return [entry.event, ...fields].join(' ');
}
