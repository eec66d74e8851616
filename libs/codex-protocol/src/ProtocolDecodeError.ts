/**
 * Errors of decoding a protocol message, as values: a `_tag`ged union, with readable
 * path-based messages built from io-ts validation errors.
 *
 * Messages never print a decoded value (it may carry a secret such as a token): they come from the
 * one decode-issue formatter of every io-ts boundary, `@wework/decode-issues` (`describeErrors`,
 * `formatDecodeIssues`; import them from there).
 *
 * Every function here is pure: values in, values out.
 */
import type * as t from 'io-ts';
import { describeErrors, formatDecodeIssues, type DecodeIssue } from '@wework/decode-issues';


/** The four kinds of protocol message. */
export type MessageKind = 'clientRequest' | 'clientNotification' | 'serverRequest' | 'serverNotification';

/** A method the protocol (as generated) does not have, or that has no descriptor. */
export interface UnknownMethod {
  readonly _tag: 'UnknownMethod';
  readonly kind: MessageKind;
  readonly method: string;
  readonly message: string;
}

/** A known method whose params do not match the generated type. */
export interface InvalidParams {
  readonly _tag: 'InvalidParams';
  readonly method: string;
  readonly issues: ReadonlyArray<DecodeIssue>;
  readonly message: string;
}

/** A response whose result does not match the generated type of the request's response. */
export interface InvalidResult {
  readonly _tag: 'InvalidResult';
  readonly method: string;
  readonly issues: ReadonlyArray<DecodeIssue>;
  readonly message: string;
}

/** Why a protocol message could not be decoded. */
export type ProtocolDecodeError = UnknownMethod | InvalidParams | InvalidResult;

/** Builds an {@link UnknownMethod} error. */
export const unknownMethod = (kind: MessageKind, method: string): UnknownMethod => ({
  _tag: 'UnknownMethod',
  kind,
  method,
  message: `Unknown ${kind} method ${JSON.stringify(method)}`,
});

/**
 * Builds an {@link InvalidParams} error from io-ts validation errors.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { isLeft } from 'fp-ts/lib/Either.js';
 * import { invalidParams } from '@wework/codex-protocol';
 * const result = t.type({ id: t.string }).decode({});
 * if (isLeft(result)) invalidParams('thread/start', result.left).message;
 * // 'Invalid params of thread/start: params.id: expected string, got nothing (missing)'
 * ```
 */
export const invalidParams = (method: string, errors: t.Errors): InvalidParams => {
  const issues = describeErrors(errors, 'params');
  return { _tag: 'InvalidParams', method, issues, message: summarise(`Invalid params of ${method}`, issues) };
};

/** Builds an {@link InvalidResult} error from io-ts validation errors. */
export const invalidResult = (method: string, errors: t.Errors): InvalidResult => {
  const issues = describeErrors(errors, 'result');
  return { _tag: 'InvalidResult', method, issues, message: summarise(`Invalid result of ${method}`, issues) };
};

const summarise = (title: string, issues: ReadonlyArray<DecodeIssue>): string => `${title}: ${formatDecodeIssues(issues)}`;
