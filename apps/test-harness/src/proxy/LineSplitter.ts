/**
 * Newline framing for MCP stdio: splits a byte stream into lines at `\n` (a byte that never
 * occurs inside a multi-byte UTF-8 character), keeping the unfinished tail for the next chunk.
 * A trailing `\r` is dropped from each line, as the MCP SDK does.
 *
 * Every function here is pure: bytes in, bytes out.
 */

/** The complete lines of a chunk and the bytes left over. */
export interface SplitResult {
  readonly lines: ReadonlyArray<Uint8Array>;
  readonly pending: Uint8Array;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function withoutCarriageReturn(line: Uint8Array): Uint8Array {
  return line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.subarray(0, line.length - 1) : line;
}

/**
 * Appends `chunk` to `pending` and cuts every complete line.
 *
 * @example
 * ```ts
 * const enc = new TextEncoder();
 * const first = splitLines(new Uint8Array(), enc.encode('{"a":1}\n{"b"'));
 * // first.lines: ['{"a":1}'], first.pending: '{"b"'
 * const second = splitLines(first.pending, enc.encode(':2}\n'));
 * // second.lines: ['{"b":2}'], second.pending: ''
 * ```
 */
export function splitLines(pending: Uint8Array, chunk: Uint8Array): SplitResult {
  const buffer = concat(pending, chunk);
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < buffer.length; i += 1) {
    if (buffer[i] === NEWLINE) {
      lines.push(withoutCarriageReturn(buffer.subarray(start, i)));
      start = i + 1;
    }
  }
  return { lines, pending: buffer.slice(start) };
}
