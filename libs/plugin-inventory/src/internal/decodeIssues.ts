/**
 * io-ts decode errors as a short list: where and what was expected, never the offending value
 * itself (stored data may carry anything). The issues are `@wework/decode-issues`'s.
 *
 * Every function here is pure.
 */
import { listIssues, type DecodeIssue } from '@wework/decode-issues';
import type * as t from 'io-ts';

const MAX_ISSUES = 10;

/** The first few issues of an io-ts failure, without the values that failed. */
export const decodeIssues = (errors: t.Errors): ReadonlyArray<DecodeIssue> => listIssues(errors).slice(0, MAX_ISSUES);
