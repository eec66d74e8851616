/**
 * What the scripted model keeps of each request it receives, and how it got answered.
 * Headers are sanitized on the way in: credentials (authorization, cookies, API keys,
 * tokens) are replaced by a marker, so recorded requests can be printed safely.
 *
 * Every function here is pure: plain data in, plain data out.
 */
import { describeIssue, type DecodeIssue } from '@wework/decode-issues';

/** Why the server refused a request (answered with an HTTP error; the script is not consumed). */
export type RequestRejection =
  | { readonly _tag: 'UnexpectedRoute'; readonly method: string; readonly path: string }
  | { readonly _tag: 'UnsupportedEncoding'; readonly encoding: string }
  | { readonly _tag: 'BodyTooLarge'; readonly limitBytes: number }
  | { readonly _tag: 'BodyNotJson'; readonly message: string }
  | { readonly _tag: 'NotAResponsesRequest'; readonly issues: ReadonlyArray<DecodeIssue> }
  | { readonly _tag: 'ScriptExhausted'; readonly scriptLength: number };

/** How a request was answered. */
export type RequestOutcome =
  /** Answered from script entry `responseIndex` with a stream, a scripted failure, or a hang. */
  | { readonly _tag: 'Answered'; readonly responseIndex: number; readonly response: 'steps' | 'fail' | 'hang' }
  /** Refused before reaching the script. */
  | { readonly _tag: 'Rejected'; readonly rejection: RequestRejection };

/** One request as the scripted model received it. */
export interface RecordedRequest {
  /** Arrival order, from 0. */
  readonly index: number;
  readonly method: string;
  /** Path and query as sent, e.g. `/v1/responses`. */
  readonly path: string;
  /** Lower-case header names; credential values replaced by {@link REDACTED}. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or `undefined` when it was empty or not JSON. */
  readonly body: unknown;
  readonly outcome: RequestOutcome;
}

/** The value recorded in place of a credential header. */
export const REDACTED = '[redacted]';

const credentialHeader = /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|password|credential/i;

/** True when a header's value is a credential and must never be kept. */
export function isCredentialHeader(name: string): boolean {
  return credentialHeader.test(name);
}

/**
 * Lower-cases header names, joins repeated values with `, ` and redacts credentials.
 *
 * @example
 * ```ts
 * sanitizeHeaders({ Authorization: 'Bearer sk-123', Accept: 'text/event-stream' });
 * // { authorization: '[redacted]', accept: 'text/event-stream' }
 * ```
 */
export function sanitizeHeaders(
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const value = typeof rawValue === 'string' ? rawValue : rawValue.join(', ');
    out[name] = isCredentialHeader(name) ? REDACTED : value;
  }
  return out;
}

/** A one-line explanation of a rejection, as sent in the error body. */
export function describeRejection(rejection: RequestRejection): string {
  switch (rejection._tag) {
    case 'UnexpectedRoute':
      return `scripted model: no route for ${rejection.method} ${rejection.path} (only POST /v1/responses)`;
    case 'UnsupportedEncoding':
      return `scripted model: unsupported content-encoding "${rejection.encoding}"`;
    case 'BodyTooLarge':
      return `scripted model: request body larger than ${rejection.limitBytes} bytes`;
    case 'BodyNotJson':
      return `scripted model: request body is not JSON: ${rejection.message}`;
    case 'NotAResponsesRequest':
      return `scripted model: not a streaming Responses API request: ${rejection.issues.map((i) => `${i.path}: ${describeIssue(i)}`).join('; ')}`;
    case 'ScriptExhausted':
      return `scripted model: script exhausted, all ${rejection.scriptLength} responses were used`;
  }
}

/** The HTTP status a rejection is answered with. */
export function rejectionStatus(rejection: RequestRejection): number {
  switch (rejection._tag) {
    case 'UnexpectedRoute':
      return 404;
    case 'UnsupportedEncoding':
      return 415;
    case 'BodyTooLarge':
      return 413;
    case 'BodyNotJson':
    case 'NotAResponsesRequest':
      return 400;
    case 'ScriptExhausted':
      // Codex shows the body of a 410 in the turn error; a 500 becomes a generic "high demand" text.
      return 410;
  }
}
