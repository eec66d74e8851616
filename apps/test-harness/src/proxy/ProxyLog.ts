/**
 * The proxy's log: one JSON object per line, per message, in the order the proxy saw them.
 *
 * ```json
 * {"seq":0,"at":"2026-01-01T00:00:00.000Z","direction":"client-to-server","message":{"jsonrpc":"2.0","id":0,"method":"initialize",...}}
 * {"seq":1,"at":"2026-01-01T00:00:00.120Z","direction":"server-to-client","message":{"jsonrpc":"2.0","id":0,"result":{...}}}
 * ```
 *
 * A line that is not JSON is logged with `raw` (its text) and `error` instead of `message`.
 * {@link decodeProxyLog} reads a log back with io-ts; {@link classifyMessage} tells requests,
 * notifications and responses apart.
 *
 * Every function here is pure: plain data in, text or plain data out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { isRecord } from '@wework/decode-issues';

/** Which way a message went through the proxy. */
export const Direction = t.keyof({ 'client-to-server': null, 'server-to-client': null }, 'Direction');
/** Which way a message went through the proxy. */
export type Direction = t.TypeOf<typeof Direction>;

const EntryBase = t.type({ seq: t.number, at: t.string, direction: Direction });

/** Any JSON value: present (a missing key reads as `undefined`, which JSON cannot hold). */
const JsonPresent = new t.Type<unknown, unknown, unknown>(
  'JsonValue',
  (u): u is unknown => u !== undefined,
  (u, c) => (u === undefined ? t.failure(u, c, 'missing') : t.success(u)),
  t.identity,
);

/** A line that parsed as JSON. */
export const MessageEntry = t.intersection([EntryBase, t.type({ message: JsonPresent })], 'MessageEntry');
/** A logged line that parsed as JSON. */
export type MessageEntry = t.TypeOf<typeof MessageEntry>;

/** A line that did not parse as JSON. */
export const UnparsedEntry = t.intersection([EntryBase, t.type({ raw: t.string, error: t.string })], 'UnparsedEntry');
/** A logged line that did not parse as JSON. */
export type UnparsedEntry = t.TypeOf<typeof UnparsedEntry>;

/** One log line. */
export const ProxyLogEntry = t.union([UnparsedEntry, MessageEntry], 'ProxyLogEntry');
/** One log line. */
export type ProxyLogEntry = t.TypeOf<typeof ProxyLogEntry>;

/** A log line that is not a valid entry. */
export interface ProxyLogDecodeError {
  readonly _tag: 'ProxyLogDecodeError';
  /** 1-based line number in the log file. */
  readonly line: number;
  readonly message: string;
}

/** Builds the entry for one line seen on the wire. */
export function logEntry(seq: number, at: string, direction: Direction, line: string): ProxyLogEntry {
  try {
    return { seq, at, direction, message: JSON.parse(line) as unknown };
  } catch (e) {
    return { seq, at, direction, raw: line, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Renders an entry as one JSON line (with the newline). */
export function formatLogEntry(entry: ProxyLogEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/**
 * Reads a whole log. Blank lines are skipped; the first bad line is an error.
 *
 * @example
 * ```ts
 * const entries = decodeProxyLog(await readFile(logFile, 'utf8'));
 * ```
 */
export function decodeProxyLog(text: string): E.Either<ProxyLogDecodeError, ReadonlyArray<ProxyLogEntry>> {
  const entries: ProxyLogEntry[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      return E.left({ _tag: 'ProxyLogDecodeError', line: i + 1, message: e instanceof Error ? e.message : String(e) });
    }
    const decoded = ProxyLogEntry.decode(json);
    if (E.isLeft(decoded)) return E.left({ _tag: 'ProxyLogDecodeError', line: i + 1, message: 'not a proxy log entry (needs seq, at, direction and message or raw+error)' });
    entries.push(decoded.right);
  }
  return E.right(entries);
}

/** What kind of JSON-RPC message an entry carries. */
export type MessageKind =
  | { readonly kind: 'request'; readonly id: string | number; readonly method: string }
  | { readonly kind: 'notification'; readonly method: string }
  | { readonly kind: 'response'; readonly id: string | number | null; readonly ok: boolean }
  | { readonly kind: 'other' };

const Id = t.union([t.string, t.number]);

/** Classifies a JSON-RPC message. */
export function classifyMessage(message: unknown): MessageKind {
  if (!isRecord(message)) return { kind: 'other' };
  const { id, method } = message;
  if (typeof method === 'string') return Id.is(id) ? { kind: 'request', id, method } : { kind: 'notification', method };
  if ('result' in message && Id.is(id)) return { kind: 'response', id, ok: true };
  if ('error' in message && (Id.is(id) || id === null)) return { kind: 'response', id, ok: false };
  return { kind: 'other' };
}
