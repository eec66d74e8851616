/**
 * The host protocol over a WebSocket on 127.0.0.1, guarded by a random token made at each launch: the
 * upgrade is refused with 401 unless the request carries the token as `Authorization: Bearer <token>`
 * or as one of its `Sec-WebSocket-Protocol` values (browsers cannot set headers). The token is compared
 * in constant time. Each text message is one JSON-RPC message.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { AbstractMessageReader, AbstractMessageWriter, createMessageConnection, type DataCallback, type Disposable, type Message, type MessageConnection } from 'vscode-jsonrpc/node';
import { parseMessageLine } from '@wework/app-server-client';
import { HostErrorCode } from './HostProtocol.js';

/** A fresh launch token: 32 random bytes, hex. */
export function launchToken(): string {
  return randomBytes(32).toString('hex');
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Whether `offered` is the token, compared in constant time (digests, so the length does not leak either). */
export function tokenMatches(offered: string | undefined, token: string): boolean {
  if (offered === undefined) return false;
  return timingSafeEqual(digest(offered), digest(token));
}

/** The token a WebSocket upgrade request offers, as a bearer token or as one of its subprotocols. */
export function offeredTokens(request: IncomingMessage): ReadonlyArray<string> {
  const tokens: string[] = [];
  const authorization = request.headers.authorization;
  const bearer = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer?.[1] !== undefined) tokens.push(bearer[1]);
  const protocols = request.headers['sec-websocket-protocol'];
  if (typeof protocols === 'string') tokens.push(...protocols.split(',').map((p) => p.trim()).filter((p) => p !== ''));
  return tokens;
}

class WebSocketMessageReader extends AbstractMessageReader {
  constructor(
    private readonly socket: WebSocket,
    private readonly onMalformed: () => void,
    private readonly tap?: (direction: MessageTapDirection, message: Message) => void,
  ) {
    super();
    socket.on('close', () => this.fireClose());
    socket.on('error', (error) => this.fireError(error));
  }
  listen(callback: DataCallback): Disposable {
    const onMessage = (data: RawData, isBinary: boolean): void => {
      const parsed = isBinary ? null : parseMessageLine(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'));
      if (parsed === null || parsed._tag === 'Left') this.onMalformed();
      else {
        const message = { jsonrpc: '2.0', ...parsed.right } as Message;
        this.tap?.('incoming', message);
        callback(message);
      }
    };
    this.socket.on('message', onMessage);
    return { dispose: () => void this.socket.off('message', onMessage) };
  }
}

class WebSocketMessageWriter extends AbstractMessageWriter {
  constructor(
    private readonly socket: WebSocket,
    private readonly tap?: (direction: MessageTapDirection, message: Message) => void,
  ) {
    super();
  }
  write(message: Message): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== this.socket.OPEN) return reject(new Error('the WebSocket is closed'));
      this.tap?.('outgoing', message);
      this.socket.send(JSON.stringify(message), (error) => (error === undefined || error === null ? resolve() : reject(error)));
    });
  }
  end(): void {
    this.socket.close();
  }
}

/** Which way a message went, seen from this end. */
export type MessageTapDirection = 'incoming' | 'outgoing';

/**
 * A JSON-RPC connection over an open WebSocket (either end): each text message is one JSON-RPC message;
 * one that is not gets a `-32700` reply with a null id. `tap` sees every message both ways.
 */
export function webSocketConnection(socket: WebSocket, tap?: (direction: MessageTapDirection, message: Message) => void): MessageConnection {
  const writer = new WebSocketMessageWriter(socket, tap);
  const reader = new WebSocketMessageReader(
    socket,
    () => void writer.write({ jsonrpc: '2.0', id: null, error: { code: HostErrorCode.ParseError, message: 'the message is not a JSON-RPC 2.0 message' } } as Message).catch(() => undefined),
    tap,
  );
  return createMessageConnection(reader, writer);
}

/** A running WebSocket endpoint. */
export interface WebSocketEndpoint {
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (`port` 0: any free port) and hands each authorised connection to `serve`. */
export async function listenWebSocket(options: { readonly port?: number; readonly token: string; readonly onRefused?: (reason: string) => void }, serve: (connection: MessageConnection) => void): Promise<WebSocketEndpoint> {
  const http = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only\n');
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols].find((p) => tokenMatches(p, options.token)) ?? false });
  const refuse = (socket: Duplex, reason: string): void => {
    options.onRefused?.(reason);
    socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nUnauthorized\n');
  };
  http.on('upgrade', (request, socket, head) => {
    socket.on('error', () => undefined);
    const offered = offeredTokens(request);
    // Check every offered value so the time taken does not depend on which one matches.
    const authorised = offered.map((value) => tokenMatches(value, options.token)).includes(true);
    if (!authorised) return refuse(socket, offered.length === 0 ? 'no token' : 'wrong token');
    wss.handleUpgrade(request, socket, head, (ws) => serve(webSocketConnection(ws)));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    port,
    token: options.token,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
