/**
 * The Node implementations of the executor's ports: desired-state messages from a readable stream (one
 * line each), status lines to a writable stream and a log on stderr. The clock and the timer are
 * `systemClock` and `nodeTimer` of `@wework/ports/node`.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { LogFormat } from '@wework/ports';
import { streamLog as nodeStreamLog } from '@wework/ports/node';
import type { Log } from '@wework/ports';
import type { DesiredStateSource, StatusSink } from '../Ports.js';

/** The lines of `input` (for example stdin), until it ends. */
export const lineSource = (input: Readable): DesiredStateSource => createInterface({ input, crlfDelay: Infinity, terminal: false });

/** Writes each status line to `output` (for example stdout), newline-terminated. */
export const lineSink =
  (output: Writable): StatusSink =>
  (line) => {
    output.write(`${line}\n`);
  };

/** A log that writes one line per entry to `output` (stderr: stdout carries the status lines), with its time and level. */
export const streamLog = (output: Writable, format: LogFormat = 'text'): Log => nodeStreamLog(output, { format });
