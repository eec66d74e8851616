/**
 * A JSON-RPC connection over an open WebSocket, for the host side: each text message is one JSON-RPC
 * message; `tap` sees every message both ways.
 */
import { AbstractMessageReader, AbstractMessageWriter, createMessageConnection, type DataCallback, type Disposable, type Message, type MessageConnection } from 'vscode-jsonrpc/node';
import type { RawData, WebSocket } from 'ws';

/** Which way a message went, seen from the host. */
export type TapDirection = 'incoming' | 'outgoing';

const text = (data: RawData): string => (Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)])).toString('utf8');

class Reader extends AbstractMessageReader {
  constructor(
    private readonly socket: WebSocket,
    private readonly tap: (direction: TapDirection, message: Message) => void,
  ) {
    super();
    socket.on('close', () => this.fireClose());
    socket.on('error', (error) => this.fireError(error));
  }
  listen(callback: DataCallback): Disposable {
    const onMessage = (data: RawData): void => {
      let message: Message;
      try {
        message = JSON.parse(text(data)) as Message;
      } catch (error) {
        this.fireError(error);
        return;
      }
      this.tap('incoming', message);
      callback(message);
    };
    this.socket.on('message', onMessage);
    return { dispose: () => void this.socket.off('message', onMessage) };
  }
}

class Writer extends AbstractMessageWriter {
  constructor(
    private readonly socket: WebSocket,
    private readonly tap: (direction: TapDirection, message: Message) => void,
  ) {
    super();
  }
  write(message: Message): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== this.socket.OPEN) return reject(new Error('the WebSocket is closed'));
      this.tap('outgoing', message);
      this.socket.send(JSON.stringify(message), (error) => (error === undefined || error === null ? resolve() : reject(error)));
    });
  }
  end(): void {
    this.socket.close();
  }
}

/** The connection over `socket`. */
export function hostWebSocketConnection(socket: WebSocket, tap: (direction: TapDirection, message: Message) => void = () => undefined): MessageConnection {
  return createMessageConnection(new Reader(socket, tap), new Writer(socket, tap));
}
