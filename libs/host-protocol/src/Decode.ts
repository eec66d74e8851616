/**
 * Decoding at the host protocol's boundary, for both peers: the executor decodes a request's params, a
 * host decodes a request's result, and either builds the JSON-RPC request of a descriptor. A value that
 * does not decode is a `_tag`ged error whose message names the place and the expected type, never the
 * value (it may be a secret).
 *
 * Every function here is pure: JSON in, values out; nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { describeErrors, formatDecodeIssues } from '@wework/decode-issues';
import type { NotificationDescriptor, RequestDescriptor } from './Descriptor.js';

/**
 * Describes io-ts errors in one line by path (from `root`), expected type and the kind of what was
 * there — never the value: `params.taskId: expected string, got a number`.
 */
export const describeDecodeErrors = (errors: t.Errors, root = 'params'): string => formatDecodeIssues(describeErrors(errors, root));

/** A message part that does not fit its codec: the method, and the places and expected types (never the values). */
interface Misfit<Tag extends string> {
  readonly _tag: Tag;
  readonly method: string;
  /** The places and expected types (never the values). */
  readonly message: string;
}

/** A request's params do not fit its codec. */
export type InvalidHostParams = Misfit<'InvalidHostParams'>;
/** A request's result does not fit its codec. */
export type InvalidHostResult = Misfit<'InvalidHostResult'>;
/** A notification's params do not fit its codec. */
export type InvalidHostNotification = Misfit<'InvalidHostNotification'>;

/** Decodes `raw` with `codec`; a misfit is tagged `tag` and described from `root`. */
const decodeAs = <A, Tag extends string>(codec: t.Mixed, raw: unknown, tag: Tag, method: string, root: string): E.Either<Misfit<Tag>, A> =>
  E.mapLeft((errors: t.Errors): Misfit<Tag> => ({ _tag: tag, method, message: describeDecodeErrors(errors, root) }))((codec as t.Type<A, unknown, unknown>).decode(raw));

/**
 * Decodes the params of a request of `descriptor` (absent params read as `{}`).
 * @example
 * ```ts
 * decodeHostParams(TaskStop, { taskId: 'task-1' }); // right({ taskId: 'task-1' })
 * ```
 */
export const decodeHostParams = <D extends RequestDescriptor>(descriptor: D, raw: unknown): E.Either<InvalidHostParams, t.TypeOf<D['params']>> =>
  decodeAs(descriptor.params, raw ?? {}, 'InvalidHostParams', descriptor.method, 'params');

/**
 * Decodes the result of a request of `descriptor`.
 * @example
 * ```ts
 * decodeHostResult(TaskStop, {}); // right({})
 * ```
 */
export const decodeHostResult = <D extends RequestDescriptor>(descriptor: D, raw: unknown): E.Either<InvalidHostResult, t.TypeOf<D['result']>> =>
  decodeAs(descriptor.result, raw, 'InvalidHostResult', descriptor.method, 'result');

/**
 * Decodes the params of a notification of `descriptor` (what a host does with each notification it receives).
 * @example
 * ```ts
 * decodeHostNotification(CardDismissedNotification, { cardId: 'card-1' }); // right({ cardId: 'card-1' })
 * ```
 */
export const decodeHostNotification = <D extends NotificationDescriptor>(descriptor: D, raw: unknown): E.Either<InvalidHostNotification, t.TypeOf<D['params']>> =>
  decodeAs(descriptor.params, raw, 'InvalidHostNotification', descriptor.method, 'params');

/** A JSON-RPC 2.0 request message. */
export interface HostRequestMessage<M extends string, P> {
  readonly jsonrpc: '2.0';
  readonly id: number | string;
  readonly method: M;
  readonly params: P;
}

/**
 * The JSON-RPC request of `descriptor` with `params` (encoded with its codec).
 * @example
 * ```ts
 * hostRequest(TaskStop, 1, { taskId: 'task-1' }); // { jsonrpc: '2.0', id: 1, method: 'task/stop', params: { taskId: 'task-1' } }
 * ```
 */
export const hostRequest = <D extends RequestDescriptor>(descriptor: D, id: number | string, params: t.TypeOf<D['params']>): HostRequestMessage<D['method'], t.OutputOf<D['params']>> => ({
  jsonrpc: '2.0',
  id,
  method: descriptor.method,
  params: (descriptor.params as t.Type<t.TypeOf<D['params']>, t.OutputOf<D['params']>, unknown>).encode(params),
});
