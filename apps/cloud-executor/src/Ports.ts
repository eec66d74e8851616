/**
 * What the cloud executor needs from outside, as ports: where desired-state messages come from, where
 * status lines go; the structured log is `Log` of `@wework/ports`; the time and the one timer for removal retries are the `Clock`
 * and `Timer` of `@wework/ports`. The Node implementations (stdin/stdout, stderr) are in `node/`, those
 * of the time in `@wework/ports/node`; tests inject fakes.
 */

/** Desired-state messages as they arrive: one untrusted text line each. The executor ends with the source. */
export type DesiredStateSource = AsyncIterable<string>;

/** Where status lines go (one JSON object per processed message or retry). */
export type StatusSink = (line: string) => void;

