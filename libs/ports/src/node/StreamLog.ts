/**
 * The Node log: one line per entry on a writable stream (stderr, where stdout carries a protocol),
 * with the time from a clock.
 */
import type { Writable } from 'node:stream';
import { formatLogLine, type Log, type LogFormat } from '../Log.js';
import type { Clock } from '../Time.js';
import { systemClock } from './NodeTime.js';

/** Options of {@link streamLog}. */
export interface StreamLogOptions {
  /** `text` (default) or `json`. */
  readonly format?: LogFormat;
  /** Where the time comes from; the system clock by default. */
  readonly clock?: Clock;
}

/**
 * A log that writes each entry as one line to `output`.
 *
 * @example
 * ```ts
 * import { streamLog } from '@wework/ports/node';
 * const log = streamLog(process.stderr, { format: 'json' });
 * log({ event: 'ready', fields: { port: 7 } }); // {"time":"…","level":"info","event":"ready","fields":{"port":7}}
 * ```
 */
export const streamLog = (output: Writable, options: StreamLogOptions = {}): Log => {
  const format = options.format ?? 'text';
  const clock = options.clock ?? systemClock;
  return (entry) => {
    output.write(`${formatLogLine(entry, clock.now(), format)}\n`);
  };
};
