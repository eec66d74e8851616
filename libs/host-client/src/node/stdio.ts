/**
 * The stdio transport of a child process: one JSON-RPC message per line on its stdin and stdout
 * (newline-delimited; lines split by `createLineSplitter` of `@wework/jsonrpc`, a line over the
 * bound dropped without being held in memory). It opens once: a stdio connection cannot be opened again.
 */
import type { Readable, Writable } from 'node:stream';
import { createLineSplitter } from '@wework/jsonrpc';
import { connectError, type TransportFactory } from '../Transport.js';

/** Options of {@link stdioTransport}. */
export interface StdioTransportOptions {
  /** The longest line read, in bytes without its newline (default 64 MiB); longer ones are dropped. */
  readonly maxLineBytes?: number;
  /** Sending fails while this many bytes wait in the child's stdin (default 64 MiB). */
  readonly maxBufferedBytes?: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The transport over a process's `stdout` (read) and `stdin` (written).
 * @example
 * ```ts
 * const client = createHostClient({ connect: stdioTransport(child.stdout, child.stdin), reconnect: false });
 * ```
 */
export function stdioTransport(input: Readable, output: Writable, options: StdioTransportOptions = {}): TransportFactory {
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  let used = false;
  return (handlers) => {
    if (used) return handlers.onFailed(connectError('NotReconnectable', 'a stdio connection cannot be opened again'));
    used = true;
    if (input.readableEnded || output.writableEnded || output.destroyed) return handlers.onFailed(connectError('Failed', 'the process’s stdio is closed'));
    const splitter = createLineSplitter({ maxLineBytes: options.maxLineBytes ?? 64 * 1024 * 1024 });
    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      input.off('data', onData);
      input.off('end', close);
      input.off('close', close);
      output.off('close', close);
      handlers.onClose('the process’s output ended');
    };
    const onData = (chunk: Buffer | string): void => {
      if (closed) return;
      for (const frame of splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) {
        if (frame._tag !== 'Line') {
          handlers.onRefused?.('TooLarge');
          continue;
        }
        let line: string;
        try {
          line = strictUtf8.decode(frame.bytes);
        } catch {
          handlers.onRefused?.('NotText');
          continue;
        }
        handlers.onMessage(line);
      }
    };
    input.on('data', onData);
    input.once('end', close);
    input.once('close', close);
    output.once('close', close);
    output.on('error', () => undefined);
    handlers.onOpen({
      send: (text) => {
        if (closed || output.writableEnded || output.destroyed || output.writableLength > maxBuffered) return false;
        output.write(`${text}\n`);
        return true;
      },
      close: () => {
        output.end();
        close();
      },
    });
  };
}
