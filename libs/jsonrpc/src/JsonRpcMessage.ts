/**
 * The shape of one JSON-RPC message: a request, a notification or a response. The Codex app-server
 * omits `"jsonrpc"`, so the field is optional here; when present it must be `"2.0"`. Both sides of this
 * workspace use these shapes: the app-server client and the executor's host connection.
 *
 * Every function here is pure: plain data in, plain data or an `Either` out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

/** A request or response id. */
export const JsonRpcId = t.union([t.string, t.number], 'JsonRpcId');
/** A request or response id. */
export type JsonRpcId = t.TypeOf<typeof JsonRpcId>;

/** The `error` member of an error response. */
export const JsonRpcErrorObject = t.intersection(
  [t.type({ code: t.number, message: t.string }), t.partial({ data: t.unknown })],
  'JsonRpcErrorObject',
);
/** The `error` member of an error response. */
export type JsonRpcErrorObject = t.TypeOf<typeof JsonRpcErrorObject>;

/** A request: it carries an id and expects a response. */
export interface JsonRpcRequest {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}

/** A notification: a method without an id. */
export interface JsonRpcNotification {
  readonly jsonrpc?: '2.0';
  readonly method: string;
  readonly params?: unknown;
}

/** A successful response. */
export interface JsonRpcSuccessResponse {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId | null;
  readonly result: unknown;
}

/** An error response. */
export interface JsonRpcErrorResponse {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId | null;
  readonly error: JsonRpcErrorObject;
}

/** Any JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcSuccessResponse | JsonRpcErrorResponse;

const Version = t.partial({ jsonrpc: t.literal('2.0') });
const MaybeParams = t.partial({ params: t.unknown });

const RequestShape = t.intersection([t.type({ id: JsonRpcId, method: t.string }), MaybeParams, Version]);
const NotificationShape = t.intersection([t.type({ method: t.string }), MaybeParams, Version]);
const ResponseId = t.type({ id: t.union([JsonRpcId, t.null]) });
const ErrorResponseShape = t.intersection([ResponseId, t.type({ error: JsonRpcErrorObject }), Version]);
const SuccessResponseShape = t.intersection([ResponseId, Version]);

const has = (record: Record<string, unknown>, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);

/**
 * Decodes one JSON value into a {@link JsonRpcMessage}: a `method` with an id is a request, a `method`
 * without an `id` member is a notification, an `id` (possibly null) with `result` or `error` is a response.
 * Anything else fails. The decoded value keeps only the JSON-RPC members (an undefined `params` is dropped).
 *
 * @example
 * ```ts
 * import { JsonRpcMessage } from '@wework/jsonrpc';
 * JsonRpcMessage.decode({ id: 1, result: {} }); // Right({ id: 1, result: {} })
 * ```
 */
export const JsonRpcMessage: t.Type<JsonRpcMessage, JsonRpcMessage, unknown> = new t.Type<JsonRpcMessage, JsonRpcMessage, unknown>(
  'JsonRpcMessage',
  (u): u is JsonRpcMessage => E.isRight(decodeMessage(u)),
  (u, context) => {
    const decoded = decodeMessage(u);
    return E.isRight(decoded) ? t.success(decoded.right) : t.failure(u, context, decoded.left);
  },
  t.identity,
);

type Decoded = E.Either<string, JsonRpcMessage>;

const fail = (reason: string): Decoded => E.left(reason);
const ok = (message: JsonRpcMessage): Decoded => E.right(message);

function decodeMessage(u: unknown): Decoded {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return fail('a JSON-RPC message must be a JSON object');
  const record: Record<string, unknown> = u as Record<string, unknown>;
  if (!Version.is(u)) return fail('"jsonrpc" must be "2.0" when present');
  const version = has(record, 'jsonrpc') ? { jsonrpc: '2.0' as const } : {};
  const params = record['params'] !== undefined ? { params: record['params'] } : {};
  if (has(record, 'method')) {
    if (has(record, 'id')) {
      if (!RequestShape.is(record)) return fail('a request needs a string "method" and a string or number "id"');
      return ok({ ...version, id: record.id, method: record.method, ...params });
    }
    if (!NotificationShape.is(record)) return fail('a notification needs a string "method"');
    return ok({ ...version, method: record.method, ...params });
  }
  if (has(record, 'error')) {
    if (!ErrorResponseShape.is(record)) return fail('an error response needs an "id" and an "error" with a numeric "code" and a string "message"');
    const error = record.error;
    const data = has(error as Record<string, unknown>, 'data') ? { data: error.data } : {};
    return ok({ ...version, id: record.id, error: { code: error.code, message: error.message, ...data } });
  }
  if (has(record, 'result')) {
    const result = record['result'];
    if (!SuccessResponseShape.is(record)) return fail('a response needs a string, number or null "id"');
    return ok({ ...version, id: record.id, result });
  }
  return fail('neither a request, a notification nor a response');
}

/** True for a request. */
export const isJsonRpcRequest = (message: JsonRpcMessage): message is JsonRpcRequest => 'method' in message && 'id' in message;
/** True for a notification. */
export const isJsonRpcNotification = (message: JsonRpcMessage): message is JsonRpcNotification => 'method' in message && !('id' in message);
/** True for a response, successful or not. */
export const isJsonRpcResponse = (message: JsonRpcMessage): message is JsonRpcSuccessResponse | JsonRpcErrorResponse => !('method' in message);
