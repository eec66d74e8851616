/**
 * The host protocol over a WebSocket on 127.0.0.1, guarded by a random token made at each launch: the
 * upgrade is refused with 401 unless the request carries the token as `Authorization: Bearer <token>`
 * or as one of its `Sec-WebSocket-Protocol` values (browsers cannot set headers). The token is compared
 * in constant time. An upgrade that carries an `Origin` header is refused with 403 unless that origin
 * was allowed at launch (`--allow-origin`). Beyond `HOST_LIMITS.maxWebSocketConnections` open
 * connections an authorised upgrade is refused with 503. Each text frame is one JSON-RPC message, at most
 * `HOST_LIMITS.maxMessageBytes` long. With a web host bundle (`--ui`), plain HTTP requests on the same
 * port get its files (`StaticUi.ts`), and the page's own origin (`http://127.0.0.1:<port>`) is allowed.
 *
 * A host's Close frame is what the end of stdin is on stdio: the end of its input. The executor reads
 * nothing after it, still sends the answers of the requests in flight, and only then answers with its
 * own Close frame (the host's code echoed), after `HOST_LIMITS.drainAfterInputEndMs` at the latest.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Log } from '@wework/ports';
import { guardedHostConnection, type HostChannel } from './GuardedConnection.js';
import { HOST_LIMITS } from '@wework/host-protocol';
import { UI_REQUEST_TIMEOUT_MS, uiResponse, type UiBundle } from './StaticUi.js';

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

/**
 * The server side of a host's WebSocket, whose reply to the host's Close frame waits until
 * {@link HostWebSocket.finishClose}. ws answers a Close frame at once, by calling `close()` once it
 * marked the frame as received (`_closeFrameReceived`, ws 8; the version is pinned and the guard's
 * tests hold it to this); that call is held back and reported to `onPeerClose` instead, so the answers
 * still owed go out first. Every other close (ours, or a protocol error's 1002, 1007, 1009) goes
 * through at once.
 */
export class HostWebSocket extends WebSocket {
  private peerCloseListener: (() => void) | undefined;
  private owedClose: { readonly code: number | undefined; readonly data: string | Buffer | undefined } | undefined;

  /** Holds back the reply to the host's Close frame and calls `listener` instead (once). */
  onPeerClose(listener: () => void): void {
    this.peerCloseListener = listener;
  }

  /** Whether the host sent its Close frame and the reply is held back. */
  closeOwed(): boolean {
    return this.owedClose !== undefined;
  }

  /** Sends the Close frame held back (the host's code echoed); nothing when none is. */
  finishClose(): void {
    const owed = this.owedClose;
    this.owedClose = undefined;
    if (owed !== undefined) super.close(owed.code, owed.data);
  }

  override close(code?: number, data?: string | Buffer): void {
    const listener = this.peerCloseListener;
    const peerClosed = (this as unknown as { readonly _closeFrameReceived?: unknown })._closeFrameReceived === true;
    if (listener !== undefined && this.owedClose === undefined && peerClosed && this.readyState === WebSocket.OPEN) {
      this.owedClose = { code, data };
      this.peerCloseListener = undefined;
      listener();
      return;
    }
    // Any close once the reply is owed sends that reply.
    if (this.owedClose !== undefined) return this.finishClose();
    super.close(code, data);
  }
}

/** Options of {@link webSocketConnection}. */
export interface WebSocketConnectionOptions {
  /** How long answers are still sent after the host's Close frame; default `HOST_LIMITS.drainAfterInputEndMs`. */
  readonly drainAfterInputEndMs?: number;
}

/**
 * A JSON-RPC connection to a host over an open WebSocket: each text frame is one message, checked by
 * the guard of {@link guardedHostConnection}; a binary frame is answered `-32700`. Frames over the host
 * limit never arrive here: the server closes such a connection with 1009 (Message Too Big). The host's
 * Close frame ends its input (a half-close, as the end of stdin): the guard still sends the answers in
 * flight, then the Close frame is answered; a host cut for output it does not read is cut at once.
 */
export function webSocketConnection(socket: HostWebSocket, log: Log, options: WebSocketConnectionOptions = {}): MessageConnection {
  const channel: HostChannel = {
    listen: (onFrame) => {
      socket.on('message', (data: RawData, isBinary: boolean) => {
        onFrame(isBinary ? { _tag: 'Refused', refusal: { _tag: 'NotText' } } : { _tag: 'Bytes', bytes: Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]) });
      });
    },
    onClose: (listener) => void socket.on('close', listener),
    onInputEnd: (listener) => socket.onPeerClose(() => listener('short')),
    onError: (listener) => void socket.on('error', listener),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    send: (text) =>
      new Promise((resolve, reject) => {
        if (socket.readyState !== socket.OPEN) return reject(new Error('the WebSocket is closed'));
        socket.send(text, (error) => (error === undefined || error === null ? resolve() : reject(error)));
      }),
    unsentBytes: () => socket.bufferedAmount,
    end: () => socket.close(),
    // After the host's Close frame the guard ends the connection this way once the answers are out: the
    // Close frame owed, unless the host is cut for output it does not read.
    destroy: () => (socket.closeOwed() && socket.bufferedAmount <= HOST_LIMITS.disconnectAboveBytes ? socket.finishClose() : socket.terminate()),
  };
  return guardedHostConnection(channel, { log, ...(options.drainAfterInputEndMs === undefined ? {} : { drainAfterInputEndMs: options.drainAfterInputEndMs }) });
}

/**
 * Whether a WebSocket upgrade may proceed given its `Origin` header: an upgrade without one (a native
 * client) may; one with an origin only when that origin is on the allow-list given at launch (compared
 * exactly, after lower-casing the scheme and host as browsers send them).
 */
export function originAllowed(origin: string | undefined, allowed: ReadonlyArray<string>): boolean {
  if (origin === undefined) return true;
  const wanted = origin.toLowerCase();
  return allowed.some((entry) => entry.toLowerCase() === wanted);
}

/** A running WebSocket endpoint. */
export interface WebSocketEndpoint {
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** Options of {@link listenWebSocket}. */
export interface WebSocketOptions {
  /** 0 or absent: any free port. */
  readonly port?: number;
  readonly token: string;
  /** Origins whose upgrades are accepted; an upgrade without `Origin` is always accepted (after the token). */
  readonly allowedOrigins?: ReadonlyArray<string>;
  /** The web host's files to serve over HTTP on the same port; its origin is then allowed too. */
  readonly ui?: UiBundle;
  /** Connections open at once; default `HOST_LIMITS.maxWebSocketConnections`. */
  readonly maxConnections?: number;
  /** How long answers are still sent after a host's Close frame; default `HOST_LIMITS.drainAfterInputEndMs`. */
  readonly drainAfterInputEndMs?: number;
  readonly log: Log;
}

/**
 * Listens on 127.0.0.1 (`port` 0: any free port) and hands each authorised connection to `serve`. An
 * upgrade with an `Origin` not on the allow-list is refused with 403, one without the token with 401;
 * one beyond the bound of open connections with 503; the log says which, never the origin or token
 * offered.
 */
export async function listenWebSocket(options: WebSocketOptions, serve: (connection: MessageConnection) => void): Promise<WebSocketEndpoint> {
  const { log } = options;
  const ui = options.ui;
  // The port is known once listening; the page's origin is allowed from then on.
  let allowedOrigins = options.allowedOrigins ?? [];
  let listeningPort = 0;
  const http = createServer((request, response) => {
    if (ui === undefined) {
      response.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only\n');
      return;
    }
    const answer = uiResponse({ method: request.method ?? '', url: request.url ?? '', host: request.headers.host }, ui, listeningPort);
    response.writeHead(answer.status, answer.headers).end(answer.body === null ? undefined : answer.body);
  });
  if (ui !== undefined) {
    // Page requests are small and quick: a slow or idle one is dropped instead of held.
    http.headersTimeout = UI_REQUEST_TIMEOUT_MS;
    http.requestTimeout = UI_REQUEST_TIMEOUT_MS;
  }
  const wss = new WebSocketServer({
    WebSocket: HostWebSocket,
    noServer: true,
    maxPayload: HOST_LIMITS.maxMessageBytes,
    handleProtocols: (protocols) => [...protocols].find((p) => tokenMatches(p, options.token)) ?? false,
  });
  const maxConnections = options.maxConnections ?? HOST_LIMITS.maxWebSocketConnections;
  // Counted from the upgrade until its socket closes, so upgrades under way count too.
  let open = 0;
  const refuse = (socket: Duplex, status: '401 Unauthorized' | '403 Forbidden' | '503 Service Unavailable', reason: string): void => {
    log({ event: 'host connection refused', fields: { reason } });
    const body = `${status.slice(4)}\n`;
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  };
  http.on('upgrade', (request, socket, head) => {
    socket.on('error', () => undefined);
    if (!originAllowed(request.headers.origin, allowedOrigins)) return refuse(socket, '403 Forbidden', 'origin not allowed');
    const offered = offeredTokens(request);
    // Check every offered value so the time taken does not depend on which one matches.
    const authorised = offered.map((value) => tokenMatches(value, options.token)).includes(true);
    if (!authorised) return refuse(socket, '401 Unauthorized', offered.length === 0 ? 'no token' : 'wrong token');
    if (open >= maxConnections) return refuse(socket, '503 Service Unavailable', 'too many connections');
    open += 1;
    socket.once('close', () => void (open -= 1));
    const connectionOptions = options.drainAfterInputEndMs === undefined ? {} : { drainAfterInputEndMs: options.drainAfterInputEndMs };
    wss.handleUpgrade(request, socket, head, (ws) => serve(webSocketConnection(ws, log, connectionOptions)));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  listeningPort = port;
  if (ui !== undefined) allowedOrigins = [...allowedOrigins, `http://127.0.0.1:${port}`, `http://localhost:${port}`];
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
