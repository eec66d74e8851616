/**
 * Decides how the scripted model answers one request: check the route, parse and decode the
 * body as a streaming Responses API request, take the next script entry, and produce the
 * reply (an event stream, a scripted HTTP failure, a hang) or a rejection. The Node server only
 * carries out the reply; all decisions live here.
 *
 * Every function here is pure: plain data in, plain data out.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { toIssues } from './internal/Codecs.js';
import { describeRejection, rejectionStatus, type RequestOutcome, type RequestRejection } from './RecordedRequest.js';
import { errorBody, hangEvents, responseEvents, type ErrorBody, type ResponseEvent } from './ResponseEvents.js';
import type { Script } from './Script.js';

/** The path Codex posts to, relative to the provider's base URL ending in `/v1`. */
export const RESPONSES_PATH = '/v1/responses';

/** A request as received, with its body already decompressed to text. */
export interface IncomingRequest {
  readonly method: string;
  readonly path: string;
  readonly bodyText: string;
}

/** What the server sends back. */
export type Reply =
  /** 200, the events as a server-sent-event stream, then the end of the response. */
  | { readonly _tag: 'Stream'; readonly events: ReadonlyArray<ResponseEvent> }
  /** 200, the events, then nothing more: the response stays open until the client goes away. */
  | { readonly _tag: 'Hang'; readonly events: ReadonlyArray<ResponseEvent> }
  /** An HTTP error with an OpenAI-style JSON error body. */
  | { readonly _tag: 'HttpError'; readonly status: number; readonly body: ErrorBody };

/** The decision for one request. */
export interface Decision {
  readonly reply: Reply;
  readonly outcome: RequestOutcome;
  /** The body parsed as JSON (`undefined` when it did not parse). */
  readonly body: unknown;
  /** The index of the next unused script entry after this request. */
  readonly next: number;
}

/** The fields the scripted model relies on in a request body; everything else is kept as sent. */
export const ResponsesRequestBody = t.type({ model: t.string, stream: t.literal(true), input: t.UnknownArray }, 'ResponsesRequestBody');

/** The reply to a request refused before reaching the script. */
export function rejectionReply(rejection: RequestRejection): Reply {
  return { _tag: 'HttpError', status: rejectionStatus(rejection), body: errorBody(describeRejection(rejection), 'scripted_model_error', rejection._tag) };
}

function rejected(rejection: RequestRejection, body: unknown, next: number): Decision {
  return { reply: rejectionReply(rejection), outcome: { _tag: 'Rejected', rejection }, body, next };
}

function routeOf(path: string): string {
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/**
 * Decides the answer to `request`, given the script and the index of its next unused entry.
 * `createdAt` (Unix seconds) is stamped on the response object.
 *
 * @example
 * ```ts
 * import { respond, say } from '@wework/scripted-model';
 * import { decide } from './Dispatch.js';
 * const d = decide([respond(say('Hi'))], 0, { method: 'POST', path: '/v1/responses', bodyText: '{"model":"m","stream":true,"input":[]}' }, 0);
 * d.reply._tag; // 'Stream'
 * d.next;       // 1
 * ```
 */
export function decide(script: Script, next: number, request: IncomingRequest, createdAt: number): Decision {
  if (request.method !== 'POST' || routeOf(request.path) !== RESPONSES_PATH) {
    return rejected({ _tag: 'UnexpectedRoute', method: request.method, path: request.path }, undefined, next);
  }
  const parsed = E.tryCatch(
    (): unknown => JSON.parse(request.bodyText),
    (e) => (e instanceof Error ? e.message : String(e)),
  );
  if (E.isLeft(parsed)) return rejected({ _tag: 'BodyNotJson', message: parsed.left }, undefined, next);
  const body = parsed.right;
  const decoded = ResponsesRequestBody.decode(body);
  if (E.isLeft(decoded)) return rejected({ _tag: 'NotAResponsesRequest', issues: toIssues('body', decoded.left) }, body, next);
  const entry = script[next];
  if (entry === undefined) return rejected({ _tag: 'ScriptExhausted', scriptLength: script.length }, body, next);
  const context = {
    responseNumber: next,
    model: decoded.right.model,
    createdAt,
    inputTokens: Math.ceil(request.bodyText.length / 4),
  };
  const outcome: RequestOutcome = { _tag: 'Answered', responseIndex: next, response: entry.kind };
  switch (entry.kind) {
    case 'steps':
      return { reply: { _tag: 'Stream', events: responseEvents(entry.steps, context) }, outcome, body, next: next + 1 };
    case 'hang':
      return { reply: { _tag: 'Hang', events: hangEvents(context) }, outcome, body, next: next + 1 };
    case 'fail':
      return {
        reply: { _tag: 'HttpError', status: entry.status, body: errorBody(entry.message, 'scripted_failure') },
        outcome,
        body,
        next: next + 1,
      };
  }
}
