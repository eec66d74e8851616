/**
 * vscode-jsonrpc `MessageReader` and `MessageWriter` for newline-delimited JSON over Node streams,
 * replacing vscode-jsonrpc's Content-Length framing, which `codex app-server` does not understand.
 */
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, Emitter } from 'vscode-jsonrpc/node';
import type { DataCallback, Disposable, Event, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node';
import { createLineDecoder, encodeMessageLine } from '../LineFraming.js';
import type { FramingError, Frame, LineDecoderOptions } from '../LineFraming.js';
import type { JsonRpcMessage } from '../JsonRpcMessage.js';

/**
 * Reads newline-delimited JSON-RPC from a byte stream. Messages reach vscode-jsonrpc with
 * `"jsonrpc": "2.0"` filled in when the peer left it out. A line that is not a message, or is too long,
 * is reported on {@link NewlineMessageReader.onFramingError} and reading carries on.
 *
 * @example
 * ```ts
 * import { PassThrough } from 'node:stream';
 * import { NewlineMessageReader } from '@wework/jsonrpc/node';
 * const input = new PassThrough();
 * const reader = new NewlineMessageReader(input);
 * reader.onFramingError((error) => console.error(error._tag));
 * reader.listen((message) => console.log(message));
 * input.write('{"method":"initialized"}\n');
 * ```
 */
export class NewlineMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly framingErrors = new Emitter<FramingError>();
  private readonly messages = new Emitter<JsonRpcMessage>();
  private detach: (() => void) | undefined;
  private closed = false;
  private disposed = false;

  /**
   * @param readable bytes from the peer (for a child process, its stdout)
   * @param options the line bound
   */
  constructor(
    private readonly readable: Readable,
    private readonly options: LineDecoderOptions = {},
  ) {
    super();
  }

  /** Fires for each line that is not a JSON-RPC message or exceeds the line bound. */
  get onFramingError(): Event<FramingError> {
    return this.framingErrors.event;
  }

  /** Fires for each decoded message, before it is handed to the connection. */
  get onMessage(): Event<JsonRpcMessage> {
    return this.messages.event;
  }

  /** Starts reading; call at most once. */
  listen(callback: DataCallback): Disposable {
    const decoder = createLineDecoder(this.options);
    const deliver = (frames: readonly Frame[]): void => {
      for (const frame of frames) {
        if (frame._tag === 'Message') {
          this.messages.fire(frame.message);
          callback({ jsonrpc: '2.0', ...frame.message } as Message);
        } else {
          this.framingErrors.fire(frame);
        }
      }
    };
    const onData = (chunk: Buffer | string): void => {
      deliver(decoder.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk));
    };
    const onEnd = (): void => {
      deliver(decoder.end());
      this.close();
    };
    // The error listener stays attached after dispose so a late stream error never goes unhandled.
    const onError = (error: Error): void => {
      if (!this.disposed) this.fireError(error);
    };
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('close', onEnd);
    this.readable.on('error', onError);
    this.detach = () => {
      this.readable.off('data', onData);
      this.readable.off('end', onEnd);
      this.readable.off('close', onEnd);
    };
    return { dispose: () => this.stop() };
  }

  override dispose(): void {
    this.disposed = true;
    this.stop();
    this.framingErrors.dispose();
    this.messages.dispose();
    super.dispose();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fireClose();
  }

  private stop(): void {
    this.detach?.();
    this.detach = undefined;
  }
}

/**
 * Writes JSON-RPC messages as newline-delimited JSON, one line per message, in call order.
 *
 * @example
 * ```ts
 * import { PassThrough } from 'node:stream';
 * import { NewlineMessageWriter } from '@wework/jsonrpc/node';
 * const output = new PassThrough();
 * await new NewlineMessageWriter(output).write({ jsonrpc: '2.0' });
 * ```
 */
export class NewlineMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private readonly written = new Emitter<Message>();
  private errorCount = 0;
  private closed = false;
  private disposed = false;
  private readonly detach: () => void;

  /** @param writable bytes to the peer (for a child process, its stdin) */
  constructor(private readonly writable: Writable) {
    super();
    const onClose = (): void => {
      if (this.closed) return;
      this.closed = true;
      this.fireClose();
    };
    // The error listener stays attached after dispose so a late EPIPE never goes unhandled.
    const onError = (error: Error): void => {
      if (!this.disposed) this.fireError(error);
    };
    writable.on('close', onClose);
    writable.on('error', onError);
    this.detach = () => writable.off('close', onClose);
  }

  /** Fires for each message once it has been handed to the stream. */
  get onWritten(): Event<Message> {
    return this.written.event;
  }

  /** Writes one message; resolves once the stream accepted it, rejects when it cannot be written. */
  write(message: Message): Promise<void> {
    let line: string;
    try {
      line = encodeMessageLine(message);
    } catch (error) {
      this.errorCount += 1;
      this.fireError(error, message, this.errorCount);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (this.closed || this.writable.destroyed || this.writable.writableEnded) {
      const error = new Error('the output stream is closed');
      this.errorCount += 1;
      this.fireError(error, message, this.errorCount);
      return Promise.reject(error);
    }
    this.written.fire(message);
    return new Promise<void>((resolve, reject) => {
      this.writable.write(line, 'utf8', (error) => {
        if (error === null || error === undefined) {
          this.errorCount = 0;
          resolve();
        } else {
          this.errorCount += 1;
          this.fireError(error, message, this.errorCount);
          reject(error);
        }
      });
    });
  }

  /** Ends the output stream. */
  end(): void {
    if (!this.writable.writableEnded) this.writable.end();
  }

  override dispose(): void {
    this.disposed = true;
    this.detach();
    this.written.dispose();
    super.dispose();
  }
}
