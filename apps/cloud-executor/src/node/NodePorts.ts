/**
 * The Node implementations of the executor's ports: desired-state messages from a readable stream (one
 * line each), status lines to a writable stream, the system clock, a `setTimeout` timer and a log on
 * stderr.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { formatLogEntry, type Clock, type DesiredStateSource, type Log, type StatusSink, type TimerPort } from '../Ports.js';

/** The lines of `input` (for example stdin), until it ends. */
export const lineSource = (input: Readable): DesiredStateSource => createInterface({ input, crlfDelay: Infinity, terminal: false });

/** Writes each status line to `output` (for example stdout), newline-terminated. */
export const lineSink =
  (output: Writable): StatusSink =>
  (line) => {
    output.write(`${line}\n`);
  };

/** The system clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A timer over `setTimeout`, unref'd so a pending retry never keeps the process alive on its own.
 *
 * @example
 * ```ts
 * nodeTimer(systemClock).set(systemClock.now() + 60_000, () => retryRemovals());
 * ```
 */
export function nodeTimer(clock: Clock): TimerPort {
  let handle: NodeJS.Timeout | undefined;
  const clear = (): void => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
  return {
    set: (at, fire) => {
      clear();
      // setTimeout caps delays at 2^31-1 ms; a later deadline fires then and re-checks.
      handle = setTimeout(
        () => {
          handle = undefined;
          fire();
        },
        Math.min(Math.max(0, at - clock.now()), 2 ** 31 - 1),
      );
      handle.unref();
    },
    clear,
  };
}

/** A log that writes one line per entry to `output` (stderr: stdout carries the status lines). */
export const streamLog =
  (output: Writable): Log =>
  (entry) => {
    output.write(`${formatLogEntry(entry)}\n`);
  };
