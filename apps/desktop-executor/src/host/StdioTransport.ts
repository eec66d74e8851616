/**
 * The host protocol over a pair of byte streams (the executor's stdin and stdout): one JSON object per
 * line, like the app-server's own protocol. Lines are cut at the host limit (`maxMessageBytes`; a
 * longer line is skipped without being held and answered `-32700`), and every line goes through the
 * guard of {@link guardedHostConnection}; reading carries on after anything a host sends. The end of
 * stdin is a half-close: the guard still answers what is in flight, then closes the connection.
 */
import type { Readable, Writable } from 'node:stream';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { createLineSplitter } from '@wework/jsonrpc';
import type { Log } from '@wework/ports';
import { guardedHostConnection, type HostChannel, type HostFrame } from './GuardedConnection.js';
import { HOST_LIMITS } from '@wework/host-protocol';

/** Options of {@link stdioConnection}. */
export interface StdioConnectionOptions {
  /** How long answers are still sent after stdin ended; default `HOST_LIMITS.drainAfterInputEndMs`. */
  readonly drainAfterInputEndMs?: number;
}

/** A JSON-RPC connection over newline-delimited JSON. */
export function stdioConnection(input: Readable, output: Writable, log: Log, options: StdioConnectionOptions = {}): MessageConnection {
  const splitter = createLineSplitter({ maxLineBytes: HOST_LIMITS.maxMessageBytes });
  const closeListeners: Array<() => void> = [];
  const inputEndListeners: Array<(owed: 'all' | 'short') => void> = [];
  let closed = false;
  let inputEnded = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners) listener();
  };
  // What was sent in one run of code goes out as one write, once that run's microtasks are done: a chunk
  // of Codex notifications becomes one write rather than one per notification. Order is kept (one queue),
  // and what is queued counts as unsent, so the guard's output bounds see it.
  let queued: string[] = [];
  let queuedChars = 0;
  let settlers: Array<(error: Error | null) => void> = [];
  const isClosed = (): boolean => closed || output.destroyed || output.writableEnded;
  const flush = (): void => {
    if (queued.length === 0) return;
    const text = queued.join('');
    const settle = settlers;
    queued = [];
    queuedChars = 0;
    settlers = [];
    if (isClosed()) return settle.forEach((each) => each(new Error('the output stream is closed')));
    output.write(text, 'utf8', (error) => settle.forEach((each) => each(error ?? null)));
  };
  let onFrame: ((frame: HostFrame) => void) | undefined;
  const deliver = (frames: ReturnType<typeof splitter.push>): void => {
    for (const frame of frames) onFrame?.(frame._tag === 'Line' ? { _tag: 'Bytes', bytes: frame.bytes } : { _tag: 'Refused', refusal: { _tag: 'TooLarge', limitBytes: frame.limitBytes } });
  };
  // An unterminated last line still counts; then the guard answers what is in flight and closes.
  input.on('end', () => {
    inputEnded = true;
    deliver(splitter.end());
    if (inputEndListeners.length === 0) close();
    for (const listener of inputEndListeners) listener('all');
  });
  // The input stream closes after its end too; only a close without an end (destroyed) closes at once.
  input.on('close', () => {
    if (!inputEnded) close();
  });
  output.on('close', close);
  // Errors of either stream (EPIPE when the host went away) end the connection; they never go unhandled.
  input.on('error', close);
  output.on('error', close);
  const channel: HostChannel = {
    listen: (listener) => {
      onFrame = listener;
      input.on('data', (chunk: Buffer | string) => deliver(splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)));
    },
    onClose: (listener) => void closeListeners.push(listener),
    onInputEnd: (listener) => void inputEndListeners.push(listener),
    onError: () => undefined,
    pause: () => void input.pause(),
    resume: () => void input.resume(),
    send: (text) =>
      new Promise<void>((resolve, reject) => {
        if (isClosed()) return reject(new Error('the output stream is closed'));
        if (queued.length === 0) queueMicrotask(flush);
        queued.push(`${text}\n`);
        queuedChars += text.length + 1;
        settlers.push((error) => (error === null ? resolve() : reject(error)));
      }),
    unsentBytes: () => output.writableLength + queuedChars,
    end: () => {
      flush();
      if (!output.writableEnded) output.end();
    },
    destroy: () => {
      flush();
      output.destroy();
      input.destroy();
      close();
    },
  };
  return guardedHostConnection(channel, { log, ...(options.drainAfterInputEndMs === undefined ? {} : { drainAfterInputEndMs: options.drainAfterInputEndMs }) });
}
