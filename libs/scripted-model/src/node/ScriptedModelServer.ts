/**
 * The scripted model as a loopback HTTP server: Codex POSTs `/v1/responses`, the server
 * records the request (credentials redacted) and answers from the script, one entry per
 * request, through the pure {@link decide}. Anything unexpected is answered with a clear HTTP
 * error at once and recorded too, so a test fails fast instead of waiting.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { decide, rejectionReply, type Reply } from '../Dispatch.js';
import { sanitizeHeaders, type RecordedRequest, type RequestOutcome, type RequestRejection } from '../RecordedRequest.js';
import { formatSseEvent } from '../ResponseEvents.js';
import type { Script } from '../Script.js';

/** Options of {@link startScriptedModel}. */
export interface ScriptedModelOptions {
  /** The responses to give, one per request, in order. */
  readonly script: Script;
  /** Interface to listen on; default `127.0.0.1`. */
  readonly host?: string;
  /** Port; default 0 (any free port). */
  readonly port?: number;
  /** Larger request bodies are refused with 413; default 64 MiB. */
  readonly maxBodyBytes?: number;
}

/** A running scripted model. */
export interface ScriptedModel {
  /** Base URL for the provider config, ending in `/v1`. */
  readonly url: string;
  /** Every request received so far, in arrival order (a snapshot). */
  readonly requests: ReadonlyArray<RecordedRequest>;
  /** Script entries not used yet. */
  readonly remaining: number;
  /** Resolves with the requests once at least `count` have been recorded; rejects if the server closes first. */
  waitForRequests(count: number): Promise<ReadonlyArray<RecordedRequest>>;
  /** Stops listening and drops every open connection, including hanging streams. Idempotent. */
  close(): Promise<void>;
}

type Body = { readonly _tag: 'Text'; readonly text: string } | { readonly _tag: 'Refused'; readonly rejection: RequestRejection };

function readBody(req: IncomingMessage, limitBytes: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limitBytes) {
        done = true;
        resolve({ _tag: 'Refused', rejection: { _tag: 'BodyTooLarge', limitBytes } });
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(decodeBody(Buffer.concat(chunks), req.headers['content-encoding']));
    });
  });
}

function decodeBody(raw: Buffer, encoding: string | undefined): Body {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  try {
    switch (name) {
      case '':
      case 'identity':
        return { _tag: 'Text', text: raw.toString('utf8') };
      case 'gzip':
        return { _tag: 'Text', text: gunzipSync(raw).toString('utf8') };
      case 'deflate':
        return { _tag: 'Text', text: inflateSync(raw).toString('utf8') };
      case 'br':
        return { _tag: 'Text', text: brotliDecompressSync(raw).toString('utf8') };
      default:
        return { _tag: 'Refused', rejection: { _tag: 'UnsupportedEncoding', encoding: name } };
    }
  } catch (e) {
    return { _tag: 'Refused', rejection: { _tag: 'BodyNotJson', message: `cannot decompress ${name} body: ${e instanceof Error ? e.message : String(e)}` } };
  }
}

function send(res: ServerResponse, reply: Reply): void {
  switch (reply._tag) {
    case 'HttpError':
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    case 'Stream':
    case 'Hang':
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of reply.events) res.write(formatSseEvent(event));
      if (reply._tag === 'Stream') res.end();
      return;
  }
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts a scripted model on a loopback port.
 *
 * @example
 * ```ts
 * import { respond, say } from '@wework/scripted-model';
 * import { startScriptedModel } from '@wework/scripted-model/node';
 * const model = await startScriptedModel({ script: [respond(say('Hello'))], host: '127.0.0.1' });
 * // configure Codex with base_url = model.url, run a turn, then:
 * model.requests[0]?.path; // '/v1/responses'
 * await model.close();
 * ```
 */
export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  const host = options.host ?? '127.0.0.1';
  const limitBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const script = options.script;
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ count: number; resolve: (r: ReadonlyArray<RecordedRequest>) => void; reject: (e: Error) => void }> = [];
  let next = 0;
  let closing: Promise<void> | undefined;

  const record = (req: IncomingMessage, body: unknown, outcome: RequestOutcome): void => {
    requests.push({
      index: requests.length,
      method: req.method ?? '',
      path: req.url ?? '',
      headers: sanitizeHeaders(req.headers),
      body,
      outcome,
    });
    for (const waiter of [...waiters]) {
      if (requests.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve([...requests]);
      }
    }
  };

  const server = createServer((req, res) => {
    void readBody(req, limitBytes).then((body) => {
      if (body._tag === 'Refused') {
        record(req, undefined, { _tag: 'Rejected', rejection: body.rejection });
        send(res, rejectionReply(body.rejection));
        return;
      }
      const decision = decide(script, next, { method: req.method ?? '', path: req.url ?? '', bodyText: body.text }, Math.floor(Date.now() / 1000));
      next = decision.next;
      record(req, decision.body, decision.outcome);
      send(res, decision.reply);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${urlHost(host)}:${port}/v1`,
    get requests() {
      return [...requests];
    },
    get remaining() {
      return script.length - next;
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve([...requests]);
      if (closing !== undefined) return Promise.reject(new Error('scripted model is closed'));
      return new Promise((resolve, reject) => waiters.push({ count, resolve, reject }));
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const waiter of waiters.splice(0)) {
          waiter.reject(new Error(`scripted model closed after ${requests.length} of ${waiter.count} awaited requests`));
        }
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
