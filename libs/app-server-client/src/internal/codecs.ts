/**
 * Guarded use of io-ts codecs: decoding and encoding never throw, failures become `Left` strings
 * that describe paths and expected types, never values.
 *
 * Every function here is pure.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { describeErrors, formatDecodeIssues } from '@wework/decode-issues';
import { errorMessage } from './ListenerSet.js';

/** Decodes, turning failures and thrown errors into a description. */
export function safeDecode<A>(codec: t.Type<A, unknown, unknown>, value: unknown): E.Either<string, A> {
  try {
    const decoded = codec.decode(value);
    return E.isRight(decoded) ? decoded : E.left(formatDecodeIssues(describeErrors(decoded.left, 'value')));
  } catch (error) {
    return E.left(`decoder threw: ${errorMessage(error)}`);
  }
}

/** Encodes, turning thrown errors into a description. */
export function safeEncode<A>(codec: t.Type<A, unknown, unknown>, value: A): E.Either<string, unknown> {
  try {
    return E.right(codec.encode(value));
  } catch (error) {
    return E.left(`encoder threw: ${errorMessage(error)}`);
  }
}

/** JSON-RPC params as vscode-jsonrpc's `sendRequest`/`sendNotification` take them after the method. */
export type ParamsShape =
  | { readonly _tag: 'None' }
  | { readonly _tag: 'ByName'; readonly params: object }
  | { readonly _tag: 'ByPosition'; readonly params: readonly unknown[] };

/** Classifies encoded params: JSON-RPC allows an object, an array, or nothing. */
export function paramsShape(encoded: unknown): E.Either<string, ParamsShape> {
  if (encoded === undefined || encoded === null) return E.right({ _tag: 'None' });
  if (Array.isArray(encoded)) return E.right({ _tag: 'ByPosition', params: encoded });
  if (typeof encoded === 'object') return E.right({ _tag: 'ByName', params: encoded });
  return E.left(`params must encode to an object, an array or nothing, got ${typeof encoded}`);
}

/** Whether a value is an fp-ts `Either`. */
export const isEither = (value: unknown): value is E.Either<unknown, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (((value as { _tag?: unknown })._tag === 'Left' && 'left' in value) || ((value as { _tag?: unknown })._tag === 'Right' && 'right' in value));
