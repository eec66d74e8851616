/**
 * The structured log: one entry is a stable event name, fields and a level; a line of the log is the
 * entry with its time, as text (`2026-12-02T07:30:00.000Z info plugin sync failed plugin="x@y"`) or
 * as one JSON object per line. The executors and tools write their logs through this port; what they
 * put in the fields never holds secrets or file contents.
 *
 * This module is pure: the time is passed in (the Node log in `@wework/ports/node` reads the clock).
 */

/** How much an entry matters. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One structured log entry. */
export interface LogEntry {
  /** A stable, greppable event name, e.g. `codex mcp elicitation request`. */
  readonly event: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** `info` when absent. */
  readonly level?: LogLevel;
}

/** Where log entries go. */
export type Log = (entry: LogEntry) => void;

/** How a log line is written: `text` for people, `json` (one object per line) for collectors. */
export type LogFormat = 'text' | 'json';

/** The log formats, for option parsing. */
export const LOG_FORMATS: ReadonlyArray<LogFormat> = ['text', 'json'];

/** `text` read as a {@link LogFormat}, or `null`. */
export const logFormatOf = (text: string): LogFormat | null => (text === 'text' || text === 'json' ? text : null);

/** JSON of a field value; a value JSON cannot hold (a bigint, a cycle) as its kind, never a throw. */
const jsonOf = (value: unknown): string => {
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? 'null';
  } catch {
    return JSON.stringify(`[unprintable ${typeof value}]`);
  }
};

/**
 * The entry without its time and level: `event key=value ...` with JSON values.
 *
 * @example
 * ```ts
 * formatLogFields({ event: 'plugin sync failed', fields: { plugin: 'notes@team', error: 'TimedOut' } });
 * // 'plugin sync failed plugin="notes@team" error="TimedOut"'
 * ```
 */
export const formatLogFields = (entry: LogEntry): string => [entry.event, ...Object.entries(entry.fields).map(([key, value]) => `${key}=${jsonOf(value)}`)].join(' ');

/**
 * One line of the log for an entry logged at `atMs` (epoch ms), without the newline.
 *
 * @example
 * ```ts
 * formatLogLine({ event: 'ready', fields: { port: 7 } }, 0, 'text'); // '1970-01-01T00:00:00.000Z info ready port=7'
 * formatLogLine({ event: 'ready', fields: { port: 7 } }, 0, 'json'); // '{"time":"1970-01-01T00:00:00.000Z","level":"info","event":"ready","fields":{"port":7}}'
 * ```
 */
export function formatLogLine(entry: LogEntry, atMs: number, format: LogFormat): string {
  const time = Number.isFinite(atMs) ? new Date(atMs).toISOString() : 'unknown-time';
  const level = entry.level ?? 'info';
  if (format === 'text') return `${time} ${level} ${formatLogFields(entry)}`;
  return `{"time":${JSON.stringify(time)},"level":${JSON.stringify(level)},"event":${jsonOf(entry.event)},"fields":${jsonOf(entry.fields)}}`;
}
