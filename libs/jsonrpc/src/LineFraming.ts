/**
 * Newline-delimited JSON framing, the way `codex app-server` speaks on stdio: one JSON object per line,
 * UTF-8, `\n` between messages (a trailing `\r` is tolerated).
 *
 * Every function here is pure: bytes in, messages or typed framing errors out. The decoder keeps state
 * between chunks (the unfinished line) but does no IO.
 */
import * as E from 'fp-ts/lib/Either.js';
import { JsonRpcMessage } from './JsonRpcMessage.js';

/** Default bound on one line: 32 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

/** How many characters of an offending line a framing error keeps. */
export const DIAGNOSTIC_PREFIX_CHARS = 200;

/** A line from the peer was not a JSON-RPC message (bad JSON, bad UTF-8 or the wrong shape). */
export interface MalformedMessage {
  readonly _tag: 'MalformedMessage';
  /** The start of the offending line, truncated for diagnostics. */
  readonly line: string;
  /** Why it was rejected. */
  readonly reason: string;
}

/** A line from the peer exceeded the line bound; it was skipped without being held in memory. */
export interface LineTooLong {
  readonly _tag: 'LineTooLong';
  /** The bound in bytes. */
  readonly limitBytes: number;
  /** The start of the offending line, truncated for diagnostics. */
  readonly prefix: string;
}

/** A framing error: the stream carries on after it. */
export type FramingError = MalformedMessage | LineTooLong;

/** One result of feeding bytes to the decoder: a message, or a framing error, in stream order. */
export type Frame = { readonly _tag: 'Message'; readonly message: JsonRpcMessage } | FramingError;

/** Options of {@link createLineDecoder}. */
export interface LineDecoderOptions {
  /** Longest accepted line in bytes, without its newline. Defaults to {@link DEFAULT_MAX_LINE_BYTES}. */
  readonly maxLineBytes?: number;
}

/** Turns a byte stream cut anywhere into frames. */
export interface LineDecoder {
  /** Feeds the next chunk; returns the frames it completes, in order. */
  push(chunk: Uint8Array): readonly Frame[];
  /** Ends the stream; an unterminated last line is decoded as if it ended with a newline. */
  end(): readonly Frame[];
}

const NEWLINE = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** Shortens text for a diagnostic, marking the cut with an ellipsis. */
export const truncateForDiagnostics = (text: string, maxChars: number = DIAGNOSTIC_PREFIX_CHARS): string =>
  text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;

/**
 * Parses one line (without its newline) into a JSON-RPC message.
 *
 * @example
 * ```ts
 * import { parseMessageLine } from '@wework/jsonrpc';
 * parseMessageLine('{"id":1,"result":{}}'); // Right({ id: 1, result: {} })
 * parseMessageLine('garbage');              // Left({ _tag: 'MalformedMessage', ... })
 * ```
 */
export function parseMessageLine(line: string): E.Either<MalformedMessage, JsonRpcMessage> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return E.left(malformed(line, `invalid JSON: ${error instanceof Error ? error.message : String(error)}`));
  }
  const decoded = JsonRpcMessage.decode(json);
  if (E.isRight(decoded)) return decoded;
  const reason = decoded.left[0]?.message ?? 'not a JSON-RPC message';
  return E.left(malformed(line, reason));
}

/**
 * Serialises one message as a line, newline included. `JSON.stringify` escapes every newline inside
 * strings, so the result is always exactly one line.
 *
 * @example
 * ```ts
 * import { encodeMessageLine } from '@wework/jsonrpc';
 * encodeMessageLine({ id: 1, method: 'model/list', params: {} }); // '{"id":1,"method":"model/list","params":{}}\n'
 * ```
 */
export function encodeMessageLine(message: unknown): string {
  const text = JSON.stringify(message);
  if (typeof text !== 'string') throw new TypeError('message is not representable as JSON');
  return `${text}\n`;
}

const malformed = (line: string, reason: string): MalformedMessage => ({ _tag: 'MalformedMessage', line: truncateForDiagnostics(line), reason });

const concat = (parts: readonly Uint8Array[], total: number): Uint8Array => {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

const prefixOf = (parts: readonly Uint8Array[]): string => {
  const budget = DIAGNOSTIC_PREFIX_CHARS * 4;
  const taken: Uint8Array[] = [];
  let size = 0;
  for (const part of parts) {
    if (size >= budget) break;
    const piece = part.subarray(0, budget - size);
    taken.push(piece);
    size += piece.length;
  }
  return truncateForDiagnostics(lenientUtf8.decode(concat(taken, size)));
};

function decodeLine(bytes: Uint8Array): Frame | undefined {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  const body = bytes.subarray(0, end);
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return malformed(lenientUtf8.decode(body), 'invalid UTF-8');
  }
  if (text.trim() === '') return undefined;
  const parsed = parseMessageLine(text);
  return E.isRight(parsed) ? { _tag: 'Message', message: parsed.right } : parsed.left;
}

/**
 * Creates a decoder for newline-delimited JSON-RPC. Chunks may be cut anywhere, including inside a
 * multi-byte UTF-8 character; blank lines are skipped; a line longer than `maxLineBytes` yields one
 * {@link LineTooLong} and is dropped without being held in memory.
 *
 * @example
 * ```ts
 * import { createLineDecoder } from '@wework/jsonrpc';
 * const decoder = createLineDecoder();
 * const bytes = new TextEncoder().encode('{"method":"initialized"}\n{"id":1,');
 * decoder.push(bytes); // [{ _tag: 'Message', message: { method: 'initialized' } }]
 * decoder.push(new TextEncoder().encode('"result":null}\n')); // [{ _tag: 'Message', ... }]
 * ```
 */
export function createLineDecoder(options: LineDecoderOptions = {}): LineDecoder {
  return splitLines<Frame>(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, decodeLine);
}

/** One result of {@link createLineSplitter}: a complete line (without its newline and trailing `\r`), or a line over the bound. */
export type LineFrame = { readonly _tag: 'Line'; readonly bytes: Uint8Array } | LineTooLong;

/** Turns a byte stream cut anywhere into lines, without decoding them. */
export interface LineSplitter {
  /** Feeds the next chunk; returns the lines it completes, in order. */
  push(chunk: Uint8Array): readonly LineFrame[];
  /** Ends the stream; an unterminated last line counts as a line. */
  end(): readonly LineFrame[];
}

/**
 * Splits a byte stream into lines as {@link createLineDecoder} does (blank lines skipped, a line over
 * `maxLineBytes` reported once as {@link LineTooLong} and never held in memory), leaving the decoding of
 * each line to the caller — for a peer whose messages are checked with stricter rules (see
 * `decodeInboundBytes`).
 *
 * @example
 * ```ts
 * import { createLineSplitter } from '@wework/jsonrpc';
 * createLineSplitter({ maxLineBytes: 4 }).push(new TextEncoder().encode('ok\ntoo long\n'));
 * // [{ _tag: 'Line', bytes: <ok> }, { _tag: 'LineTooLong', limitBytes: 4, prefix: 'too long' }]
 * ```
 */
export function createLineSplitter(options: LineDecoderOptions = {}): LineSplitter {
  return splitLines<LineFrame>(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, (bytes) => (isBlank(bytes) ? undefined : { _tag: 'Line', bytes: withoutCr(bytes) }));
}

const withoutCr = (bytes: Uint8Array): Uint8Array => (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes);

/** Whether a line holds only JSON whitespace (space, tab, CR). */
const isBlank = (bytes: Uint8Array): boolean => bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);

function splitLines<F>(limit: number, onLine: (bytes: Uint8Array) => F | undefined): { push(chunk: Uint8Array): readonly (F | LineTooLong)[]; end(): readonly (F | LineTooLong)[] } {
  type Out = F | LineTooLong;
  let parts: Uint8Array[] = [];
  let size = 0;
  let skipping = false;

  const overflow = (tail: Uint8Array): LineTooLong => {
    const frame: LineTooLong = { _tag: 'LineTooLong', limitBytes: limit, prefix: prefixOf([...parts, tail]) };
    parts = [];
    size = 0;
    skipping = true;
    return frame;
  };

  const finishLine = (tail: Uint8Array, frames: Out[]): void => {
    if (skipping) {
      skipping = false;
      return;
    }
    const length = size + tail.length;
    const withoutCrLength = length > 0 && lastByte(parts, tail) === 0x0d ? length - 1 : length;
    if (withoutCrLength > limit) {
      frames.push(overflow(tail));
      skipping = false;
      return;
    }
    const line = concat([...parts, tail], length);
    parts = [];
    size = 0;
    const frame = onLine(line);
    if (frame !== undefined) frames.push(frame);
  };

  return {
    push(chunk) {
      const frames: Out[] = [];
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(NEWLINE, start);
        if (newline === -1) {
          const rest = chunk.subarray(start);
          if (rest.length === 0 || skipping) break;
          // One byte of slack for a trailing '\r' that may belong to a line of exactly `limit` bytes.
          if (size + rest.length > limit + 1) {
            frames.push(overflow(rest));
          } else {
            parts.push(rest);
            size += rest.length;
          }
          break;
        }
        finishLine(chunk.subarray(start, newline), frames);
        start = newline + 1;
      }
      return frames;
    },
    end() {
      const frames: Out[] = [];
      if (size > 0) finishLine(new Uint8Array(0), frames);
      parts = [];
      size = 0;
      skipping = false;
      return frames;
    },
  };
}

function lastByte(parts: readonly Uint8Array[], tail: Uint8Array): number | undefined {
  if (tail.length > 0) return tail[tail.length - 1];
  const last = parts[parts.length - 1];
  return last === undefined ? undefined : last[last.length - 1];
}
