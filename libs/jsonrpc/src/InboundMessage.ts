/**
 * Strict decoding of one message from an untrusted JSON-RPC peer (a host talking to a server built on
 * vscode-jsonrpc), before any dispatcher sees it: the size and the nesting depth are checked on the raw
 * text before it is parsed, then the JSON, the JSON-RPC shape, and the params of vscode-jsonrpc's own
 * `$/` notifications (which its dispatcher reads without checking). Every outcome is a value: a message
 * to deliver, or a refusal that says whether and how to answer. Refusals never carry the offending
 * text or any value from it.
 *
 * Every function here is pure: bytes or text in, plain data out; nothing here throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { JsonRpcMessage, isJsonRpcNotification, isJsonRpcResponse, type JsonRpcId } from './JsonRpcMessage.js';
import { WireErrorCode } from './WireErrorCode.js';

/** The bounds a message must keep. */
export interface InboundLimits {
  /** Largest message in bytes (UTF-8, without the newline of a line). */
  readonly maxBytes: number;
  /** Deepest nesting of arrays and objects; the message object itself is level 1. */
  readonly maxDepth: number;
}

/** vscode-jsonrpc's own notifications, which its dispatcher handles itself, and the params each needs. */
export const ReservedNotificationParams = {
  '$/cancelRequest': t.type({ id: t.union([t.string, t.number]) }),
  '$/progress': t.type({ token: t.union([t.string, t.number]), value: t.unknown }),
  '$/setTrace': t.type({ value: t.keyof({ off: null, messages: null, compact: null, verbose: null }) }),
  '$/logTrace': t.intersection([t.type({ message: t.string }), t.partial({ verbose: t.string })]),
} as const;

/** The method of one of vscode-jsonrpc's own notifications. */
export type ReservedNotification = keyof typeof ReservedNotificationParams;

/** Why a message was not delivered. None of them carries a value of the message. */
export type InboundRefusal =
  | { readonly _tag: 'TooLarge'; readonly limitBytes: number }
  | { readonly _tag: 'TooDeep'; readonly limitDepth: number }
  | { readonly _tag: 'NotText' }
  | { readonly _tag: 'NotJson' }
  /** Valid JSON but no JSON-RPC message; `id` is the request id when the message is recognisably a request. */
  | { readonly _tag: 'NotJsonRpc'; readonly id: JsonRpcId | null; readonly reason: string }
  /** A `$/` notification of vscode-jsonrpc with params it cannot use, or one it does not know. */
  | { readonly _tag: 'InvalidReservedNotification'; readonly method: ReservedNotification | null }
  /** A response with a null id: nothing to correlate it with. */
  | { readonly _tag: 'UncorrelatedResponse' };

/** The outcome of decoding one inbound message. */
export type InboundMessage = { readonly _tag: 'Accepted'; readonly message: JsonRpcMessage } | { readonly _tag: 'Refused'; readonly refusal: InboundRefusal };

/** The error reply a refusal gets, or `null` when it gets none (notifications and responses are never answered). */
export interface InboundErrorReply {
  readonly id: JsonRpcId | null;
  readonly error: { readonly code: number; readonly message: string };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextEncoder();

const refused = (refusal: InboundRefusal): InboundMessage => ({ _tag: 'Refused', refusal });

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`, found by one scan of the text
 * (brackets inside strings do not count), so that a hostile document is refused before parsing or
 * decoding recurses into it.
 * @example
 * ```ts
 * import { exceedsNestingDepth } from '@wework/jsonrpc';
 * exceedsNestingDepth('{"a":[1]}', 2); // false
 * exceedsNestingDepth('[[["]]]"]]]', 2); // true
 * ```
 */
export function exceedsNestingDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/** Decodes one message given as bytes (a stdio line or a WebSocket frame): UTF-8 first, then {@link decodeInboundText}. */
export function decodeInboundBytes(bytes: Uint8Array, limits: InboundLimits): InboundMessage {
  if (bytes.length > limits.maxBytes) return refused({ _tag: 'TooLarge', limitBytes: limits.maxBytes });
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return refused({ _tag: 'NotText' });
  }
  return decodeInboundText(text, limits);
}

/**
 * Decodes one message given as text. Requests need a string or finite number id (a null id cannot be
 * answered); `$/` notifications need the params vscode-jsonrpc reads (see {@link ReservedNotificationParams});
 * responses need an id that is not null.
 * @example
 * ```ts
 * import { decodeInboundText } from '@wework/jsonrpc';
 * const limits = { maxBytes: 1024, maxDepth: 8 };
 * decodeInboundText('{"jsonrpc":"2.0","id":1,"method":"executor/info"}', limits); // { _tag: 'Accepted', ... }
 * decodeInboundText('{"jsonrpc":"2.0","method":"$/cancelRequest"}', limits);
 * // { _tag: 'Refused', refusal: { _tag: 'InvalidReservedNotification', method: '$/cancelRequest' } }
 * ```
 */
export function decodeInboundText(text: string, limits: InboundLimits): InboundMessage {
  // UTF-16 length bounds the UTF-8 length from below; count bytes only when it might matter.
  if (text.length > limits.maxBytes || (text.length * 3 > limits.maxBytes && utf8.encode(text).length > limits.maxBytes)) return refused({ _tag: 'TooLarge', limitBytes: limits.maxBytes });
  if (exceedsNestingDepth(text, limits.maxDepth)) return refused({ _tag: 'TooDeep', limitDepth: limits.maxDepth });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refused({ _tag: 'NotJson' });
  }
  const decoded = JsonRpcMessage.decode(json);
  if (E.isLeft(decoded)) return refused({ _tag: 'NotJsonRpc', id: requestIdOf(json), reason: decoded.left[0]?.message ?? 'not a JSON-RPC message' });
  const message = decoded.right;
  if ('id' in message && typeof message.id === 'number' && !Number.isFinite(message.id)) return refused({ _tag: 'NotJsonRpc', id: null, reason: 'an id must be a string or a finite number' });
  if (isJsonRpcNotification(message) && message.method.startsWith('$/')) {
    const method = reservedMethod(message.method);
    if (method === null || !ReservedNotificationParams[method].is(message.params)) return refused({ _tag: 'InvalidReservedNotification', method });
  }
  if (isJsonRpcResponse(message) && message.id === null) return refused({ _tag: 'UncorrelatedResponse' });
  return { _tag: 'Accepted', message };
}

const reservedMethod = (method: string): ReservedNotification | null => (Object.prototype.hasOwnProperty.call(ReservedNotificationParams, method) ? (method as ReservedNotification) : null);

/** The id of something that is recognisably a request (it has a `method` and a usable id), else null. */
function requestIdOf(json: unknown): JsonRpcId | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('method' in json) || !('id' in json)) return null;
  const id: unknown = json.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * The error reply a refusal gets: `-32700` for what is not a JSON text within the bounds (id null: the
 * id cannot be read safely), `-32600` for JSON that is no JSON-RPC message (with the request's id when
 * it has one); `null` for notifications and responses, which are dropped unanswered.
 * @example
 * ```ts
 * import { inboundErrorReply } from '@wework/jsonrpc';
 * inboundErrorReply({ _tag: 'TooDeep', limitDepth: 64 });
 * // { id: null, error: { code: -32700, message: 'Parse error: the message nests arrays and objects deeper than 64 levels' } }
 * ```
 */
export function inboundErrorReply(refusal: InboundRefusal): InboundErrorReply | null {
  const parseError = (message: string): InboundErrorReply => ({ id: null, error: { code: WireErrorCode.ParseError, message: `Parse error: ${message}` } });
  switch (refusal._tag) {
    case 'TooLarge':
      return parseError(`the message is larger than ${refusal.limitBytes} bytes`);
    case 'TooDeep':
      return parseError(`the message nests arrays and objects deeper than ${refusal.limitDepth} levels`);
    case 'NotText':
      return parseError('the message is not UTF-8 text');
    case 'NotJson':
      return parseError('the message is not valid JSON');
    case 'NotJsonRpc':
      return { id: refusal.id, error: { code: WireErrorCode.InvalidRequest, message: `Invalid request: ${refusal.reason}` } };
    case 'InvalidReservedNotification':
    case 'UncorrelatedResponse':
      return null;
  }
}

/** A one-line description of a refusal for a log: its kind, never a value of the message. */
export function describeInboundRefusal(refusal: InboundRefusal): string {
  switch (refusal._tag) {
    case 'TooLarge':
      return `larger than ${refusal.limitBytes} bytes`;
    case 'TooDeep':
      return `nested deeper than ${refusal.limitDepth} levels`;
    case 'NotText':
      return 'not UTF-8 text';
    case 'NotJson':
      return 'not JSON';
    case 'NotJsonRpc':
      return 'not a JSON-RPC message';
    case 'InvalidReservedNotification':
      return refusal.method === null ? 'an unknown $/ notification' : `${refusal.method} with invalid params`;
    case 'UncorrelatedResponse':
      return 'a response with a null id';
  }
}
