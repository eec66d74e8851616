/**
 * Errors of decoding a protocol message, as values: a `_tag`ged union, with readable
 * path-based messages built from io-ts validation errors.
 *
 * Messages never print a decoded value (it may carry a secret such as a token): an issue names the
 * path, the expected type and only the kind of what was there. This is the one decode-issue formatter
 * of every io-ts boundary ({@link formatDecodeIssues}).
 *
 * Every function here is pure: values in, values out.
 */
import type * as t from 'io-ts';

/** The four kinds of protocol message. */
export type MessageKind = 'clientRequest' | 'clientNotification' | 'serverRequest' | 'serverNotification';

/** One reason a value did not match its codec. */
export interface DecodeIssue {
  /** Where in the message, e.g. `params.questions[0].id`. */
  readonly path: string;
  /** The name of the expected type, e.g. `string` or `AskForApproval`. */
  readonly expected: string;
  /** The kind of what was there instead, never its value, e.g. `nothing (missing)` or `a number`. */
  readonly actual: string;
}

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

/** How many issues a message lists before summarising the rest. */
const listedIssues = 5;

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

/**
 * Formats issues on one line — `path: expected type, got kind`, the first five, then a count of the
 * rest. Values never appear (see {@link DecodeIssue.actual}).
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { isLeft } from 'fp-ts/lib/Either.js';
 * import { describeErrors, formatDecodeIssues } from '@wework/codex-protocol';
 * const result = t.type({ taskId: t.string }).decode({ taskId: 7 });
 * if (isLeft(result)) formatDecodeIssues(describeErrors(result.left, 'params'));
 * // 'params.taskId: expected string, got a number'
 * ```
 */
export const formatDecodeIssues = (issues: ReadonlyArray<DecodeIssue>): string => {
  const listed = issues.slice(0, listedIssues).map((i) => `${i.path}: expected ${i.expected}, got ${i.actual}`);
  const more = issues.length > listedIssues ? [`and ${issues.length - listedIssues} more`] : [];
  return [...listed, ...more].join('; ');
};

/** Codec kinds whose context entries do not add a step to the path (they try alternatives or parts). */
const transparentTags = new Set(['UnionType', 'IntersectionType']);

const isIdentifier = (key: string): boolean => /^[A-Za-z_$][\w$]*$/.test(key);

const tagOf = (type: t.Decoder<unknown, unknown>): string | undefined => {
  const tag: unknown = (type as { readonly _tag?: unknown })._tag;
  return typeof tag === 'string' ? tag : undefined;
};

/**
 * Turns io-ts errors into issues with readable paths, naming at each path the outermost type
 * expected there (so a failed union reads `expected AskForApproval`, not one line per member).
 * @param root the name of the decoded value, e.g. `params`
 */
export const describeErrors = (errors: t.Errors, root: string): ReadonlyArray<DecodeIssue> => {
  const byPlace = new Map<string, DecodeIssue>();
  for (const error of errors) {
    const located = locate(error, root);
    const key = `${located.path}\u0000${located.expected}`;
    if (!byPlace.has(key)) byPlace.set(key, { ...located, actual: describeKind(error.value) });
  }
  return [...byPlace.values()];
};

const locate = (error: t.ValidationError, root: string): { path: string; expected: string } => {
  let path = root;
  let expectedAt = error.context[0];
  let expectedPath = path;
  error.context.forEach((entry, index) => {
    const parent = index > 0 ? error.context[index - 1] : undefined;
    if (parent) {
      const parentTag = tagOf(parent.type);
      if (parentTag === undefined || !transparentTags.has(parentTag)) {
        path += parentTag === 'ArrayType' ? `[${entry.key}]` : isIdentifier(entry.key) ? `.${entry.key}` : `[${JSON.stringify(entry.key)}]`;
      }
    }
    if (path !== expectedPath) {
      expectedPath = path;
      expectedAt = entry;
    }
  });
  return { path, expected: expectedAt?.type.name ?? 'a valid value' };
};

/** The kind of a value, never the value itself (a string's length at most). */
const describeKind = (value: unknown): string => {
  if (value === undefined) return 'nothing (missing)';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return `a string (${value.length} characters)`;
    case 'object':
      return Array.isArray(value) ? `an array (${value.length} items)` : 'an object';
    default:
      return `a ${typeof value}`;
  }
};
