/**
 * The app-server side of an in-process connection: two PassThrough streams, a decoder for what the
 * client writes, and helpers to answer the way the real app-server does (no `"jsonrpc"` member).
 */
import { PassThrough } from 'node:stream';
import { createLineDecoder, type JsonRpcMessage } from '@wework/jsonrpc';

export interface FakePeer {
  /** Give to the client as `input`. */
  readonly input: PassThrough;
  /** Give to the client as `output`. */
  readonly output: PassThrough;
  /** Every message the client wrote, in order. */
  readonly received: JsonRpcMessage[];
  /** Writes one message as a line. */
  send(message: object): void;
  /** Writes raw text. */
  sendRaw(text: string): void;
  /** Resolves with the first received message (from index `from` on) that matches. */
  next(predicate: (message: JsonRpcMessage) => boolean, from?: number): Promise<JsonRpcMessage>;
  /** Ends the client's input. */
  end(): void;
}

export function fakePeer(): FakePeer {
  const input = new PassThrough();
  const output = new PassThrough();
  const received: JsonRpcMessage[] = [];
  const waiters = new Set<() => void>();
  const decoder = createLineDecoder();
  output.on('data', (chunk: Buffer) => {
    for (const frame of decoder.push(chunk)) {
      if (frame._tag !== 'Message') throw new Error(`client wrote a bad line: ${frame._tag}`);
      received.push(frame.message);
    }
    for (const wake of [...waiters]) wake();
  });
  return {
    input,
    output,
    received,
    send: (message) => void input.write(`${JSON.stringify(message)}\n`),
    sendRaw: (text) => void input.write(text),
    next: (predicate, from = 0) =>
      new Promise((resolve) => {
        const check = (): void => {
          const found = received.slice(from).find(predicate);
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        check();
      }),
    end: () => void input.end(),
  };
}

/** The id of a request the client wrote. */
export const idOf = (message: JsonRpcMessage): string | number => {
  if (!('id' in message) || message.id === null) throw new Error('not a request');
  return message.id;
};
