/**
 * The executor's structured log: what a person debugging a plugin form needs to see (whether a request
 * reached the executor, how it was answered and why), never secrets or form contents beyond the schema.
 * It is the log port of `@wework/ports` (an entry: event, fields, level; a line adds the time).
 */
import { formatLogFields, type Log, type LogEntry } from '@wework/ports';

/** One log entry. */
export type ExecutorLogEntry = LogEntry;

/** Where log entries go. */
export type ExecutorLog = Log;

/** Formats an entry without its time and level: `event key=value ...` with JSON values. */
export const formatLogEntry = formatLogFields;
