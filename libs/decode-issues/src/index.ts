/**
 * `@wework/decode-issues`: the one decode-issue formatter of every io-ts boundary. It never prints a
 * decoded value: an issue names the path, the expected type and the kind of what was there.
 *
 * - {@link describeErrors} and {@link formatDecodeIssues}: io-ts errors as issues, issues as one line.
 * - {@link issuePath} and {@link expectedTypeName}: the building blocks, for boundaries that word
 *   their messages their own way.
 */
export {
  describeErrors,
  describeKind,
  expectedTypeName,
  formatDecodeIssues,
  issuePath,
  type DecodeIssue,
  type PathStyle,
} from './DecodeIssues.js';
