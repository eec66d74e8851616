/**
 * `@wework/decode-issues`: the one decode-issue formatter of every io-ts boundary. It never prints a
 * decoded value: an issue names the path, the expected type and the kind of what was there.
 *
 * - {@link describeErrors} and {@link formatDecodeIssues}: io-ts errors as issues, issues as one line;
 *   {@link listIssues} and {@link describeIssue} for boundaries that keep their own path style.
 * - {@link strictRecord}: the one record codec that rejects unknown keys, each at its path.
 * - {@link parseJsonText}: JSON text parsed, or where its first problem is (line and column), never quoting it.
 * - {@link isRecord}: the one guard for a plain (non-null, non-array) object.
 * - {@link issuePath} and {@link expectedTypeName}: the building blocks, for boundaries that word
 *   their messages their own way.
 */
export {
  describeErrors,
  describeIssue,
  describeKind,
  expectedTypeName,
  formatDecodeIssues,
  issuePath,
  listIssues,
  type DecodeIssue,
  type PathStyle,
} from './DecodeIssues.js';
export { isRecord } from './Records.js';
export { strictRecord } from './StrictRecord.js';
export { formatJsonSyntaxError, lineAndColumn, locateJsonSyntaxError, parseJsonText, type JsonSyntaxError } from './JsonText.js';
