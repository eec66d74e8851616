/**
 * fast-check arbitraries for JSON-RPC messages in the normalised form `JsonRpcMessage.decode` yields,
 * and for cutting byte streams at arbitrary places.
 */
import fc from 'fast-check';
import type { JsonRpcMessage } from '../src/index.js';

/** JSON values with any Unicode in strings (multi-byte UTF-8, astral planes), normalised through JSON. */
export const jsonValue: fc.Arbitrary<unknown> = fc
  .jsonValue({ stringUnit: 'binary', maxDepth: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

const id = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.integer());
const method = fc.string({ unit: 'binary', minLength: 1, maxLength: 30 });
const version = fc.option(fc.constant({ jsonrpc: '2.0' as const }), { nil: undefined });
const params = fc.option(
  jsonValue.map((value) => ({ params: value })),
  { nil: undefined },
);

/** Any JSON-RPC message, as `JsonRpcMessage.decode` would return it. */
export const jsonRpcMessage: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record({ v: version, id, method, p: params }).map(({ v, id, method, p }) => ({ ...v, id, method, ...p })),
  fc.record({ v: version, method, p: params }).map(({ v, method, p }) => ({ ...v, method, ...p })),
  fc.record({ v: version, id: fc.option(id, { nil: null }), result: jsonValue }).map(({ v, id, result }) => ({ ...v, id, result })),
  fc
    .record({
      v: version,
      id: fc.option(id, { nil: null }),
      code: fc.integer({ min: -32768, max: 32767 }),
      message: fc.string({ unit: 'binary', maxLength: 40 }),
      data: fc.option(jsonValue, { nil: undefined }),
    })
    .map(({ v, id, code, message, data }) => ({ ...v, id, error: data === undefined ? { code, message } : { code, message, data } })),
);

/** A line that can never be a JSON-RPC message: no newline, and not a JSON object. */
export const garbageLine: fc.Arbitrary<string> = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 60 })
  .filter((text) => !text.includes('\n') && text.trim() !== '' && !text.trim().startsWith('{'));

/** Cuts bytes into chunks at arbitrary offsets (possibly inside a multi-byte character). */
export function chunked(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const offsets = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % (bytes.length + 1))))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** Offsets to cut at. */
export const cuts: fc.Arbitrary<number[]> = fc.array(fc.nat(), { maxLength: 20 });
