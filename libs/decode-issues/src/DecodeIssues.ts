/**
 * The one decode-issue formatter of every io-ts boundary: io-ts validation errors as issues with
 * readable paths, and issues as one line. An issue names the path, the expected type and only the
 * kind of what was there — never a decoded value, which may carry a secret such as a token.
 *
 * Every function here is pure: values in, values out.
 */
import * as t from 'io-ts';

/** One reason a value did not match its codec. */
export interface DecodeIssue {
  /** Where in the message, e.g. `params.questions[0].id`. */
  readonly path: string;
  /** The name of the expected type, e.g. `string` or `AskForApproval`. */
  readonly expected: string;
  /** The kind of what was there instead, never its value, e.g. `nothing (missing)` or `a number`. */
  readonly actual: string;
  /**
   * The boundary's own wording of the problem, when it has one (e.g. `unknown key "sya"`); it then
   * stands for `expected …, got …` (see {@link describeIssue}). Never quotes a value.
   */
  readonly message?: string;
}

/**
 * What went wrong at an issue's path: its own message, or `expected <type>, got <kind>`.
 * @example
 * ```ts
 * describeIssue({ path: 'say', expected: 'string', actual: 'a number' }); // 'expected string, got a number'
 * ```
 */
export const describeIssue = (issue: DecodeIssue): string => issue.message ?? `expected ${issue.expected}, got ${issue.actual}`;

/** How many issues {@link formatDecodeIssues} lists before summarising the rest. */
const listedIssues = 5;

/**
 * Formats issues on one line — `path: expected type, got kind` (or the issue's own message), the
 * first five, then a count of the rest. Values never appear (see {@link DecodeIssue.actual}).
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { isLeft } from 'fp-ts/lib/Either.js';
 * import { describeErrors, formatDecodeIssues } from '@wework/decode-issues';
 * const result = t.type({ taskId: t.string }).decode({ taskId: 7 });
 * if (isLeft(result)) formatDecodeIssues(describeErrors(result.left, 'params'));
 * // 'params.taskId: expected string, got a number'
 * ```
 */
export const formatDecodeIssues = (issues: ReadonlyArray<DecodeIssue>): string => {
  const listed = issues.slice(0, listedIssues).map((i) => `${i.path}: ${describeIssue(i)}`);
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

/**
 * The kind of a value, never the value itself (a string's length at most).
 * @example
 * ```ts
 * describeKind('secret'); // 'a string (6 characters)'
 * ```
 */
export const describeKind = (value: unknown): string => {
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

/** How {@link issuePath} spells a path. */
export interface PathStyle {
  /** The name of the decoded value the path starts with; `''` (default) for none. */
  readonly root?: string;
  /** Array indices and other all-digit keys: `.0` (`dotted`, default), `[0]` (`brackets`) or left out (`omit`). */
  readonly indices?: 'dotted' | 'brackets' | 'omit';
  /**
   * Keys that name the member of a union (or intersection) tried rather than a place in the value:
   * kept (default), left out under unions, or left out under unions and intersections.
   */
  readonly members?: 'keep' | 'skipUnions' | 'skipUnionsAndIntersections';
}

const isIndex = (key: string): boolean => /^\d+$/.test(key);

const isMemberKey = (parent: t.Decoder<unknown, unknown> | undefined, members: NonNullable<PathStyle['members']>): boolean =>
  members !== 'keep' && (parent instanceof t.UnionType || (members === 'skipUnionsAndIntersections' && parent instanceof t.IntersectionType));

/**
 * The place an io-ts context points at, as a path of its keys (the root entry and empty keys left
 * out), spelled as `style` says. Names only keys, never values.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { isLeft } from 'fp-ts/lib/Either.js';
 * const result = t.type({ steps: t.array(t.string) }).decode({ steps: [1] });
 * if (isLeft(result)) issuePath(result.left[0]!.context, { root: 'script', indices: 'brackets' }); // 'script.steps[0]'
 * ```
 */
export const issuePath = (context: t.Context, style: PathStyle = {}): string => {
  const indices = style.indices ?? 'dotted';
  const members = style.members ?? 'keep';
  let path = style.root ?? '';
  context.forEach((entry, index) => {
    if (index === 0 || entry.key === '' || isMemberKey(context[index - 1]?.type, members)) return;
    if (isIndex(entry.key) && indices !== 'dotted') {
      if (indices === 'brackets') path += `[${entry.key}]`;
      return;
    }
    path += path === '' ? entry.key : `.${entry.key}`;
  });
  return path;
};

/** The name of the type expected where an io-ts error happened (the innermost one), if any. */
export const expectedTypeName = (error: t.ValidationError): string | undefined => error.context[error.context.length - 1]?.type.name;

/**
 * Turns io-ts errors into issues located by {@link issuePath} (spelled as `style` says), each naming
 * the innermost expected type, the kind of what was there and the codec's own message if it gave
 * one; an issue repeated at the same path is listed once.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { isLeft } from 'fp-ts/lib/Either.js';
 * const result = t.type({ steps: t.array(t.string) }).decode({ steps: [1] });
 * if (isLeft(result)) listIssues(result.left, { root: 'script', indices: 'brackets' });
 * // [{ path: 'script.steps[0]', expected: 'string', actual: 'a number' }]
 * ```
 */
export const listIssues = (errors: t.Errors, style: PathStyle = {}): ReadonlyArray<DecodeIssue> => {
  const byLine = new Map<string, DecodeIssue>();
  for (const error of errors) {
    const located = { path: issuePath(error.context, style), expected: expectedTypeName(error) ?? 'a valid value', actual: describeKind(error.value) };
    const issue: DecodeIssue = error.message === undefined ? located : { ...located, message: error.message };
    const line = `${issue.path}\u0000${describeIssue(issue)}`;
    if (!byLine.has(line)) byLine.set(line, issue);
  }
  return [...byLine.values()];
};
