/**
 * io-ts decode errors as short, bounded values: where and what was expected, never the offending
 * value itself (stored data may carry anything). The path comes from `@wework/decode-issues`.
 *
 * Every function here is pure.
 */
import { expectedTypeName, issuePath } from '@wework/decode-issues';
import type * as t from 'io-ts';

/** One reason a value did not decode. */
export interface DecodeIssue {
  /** Dotted path to the field, `''` for the value itself. */
  readonly path: string;
  /** The name of the type that was expected there. */
  readonly expected: string;
}

const MAX_ISSUES = 10;

/** The first few issues of an io-ts failure, without the values that failed. */
export const decodeIssues = (errors: t.Errors): ReadonlyArray<DecodeIssue> =>
  errors.slice(0, MAX_ISSUES).map((error) => ({ path: issuePath(error.context), expected: expectedTypeName(error) ?? 'unknown' }));
