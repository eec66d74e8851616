/**
 * The examples of README.md, run as written (the blocks between the markers are the README's, line for
 * line); what each commented expression gives is recorded and checked below them.
 */
import { expect, test } from 'vitest';
import * as jsonrpc from '../src/index.js';

/** `fn`, with every answer it gives kept in `results`. */
const recording =
  <A extends unknown[], R>(results: unknown[], fn: (...args: A) => R) =>
  (...args: A): R => {
    const result = fn(...args);
    results.push(result);
    return result;
  };

test('README example', () => {
  const results: unknown[] = [];
  const { createLineSplitter, decodeInboundBytes, encodeMessageLine, initialGateState } = jsonrpc;
  const admitInbound = recording(results, jsonrpc.admitInbound);
  const createLineDecoder = (options: jsonrpc.LineDecoderOptions): jsonrpc.LineDecoder => {
    const decoder = jsonrpc.createLineDecoder(options);
    return { push: recording(results, (chunk: Uint8Array) => decoder.push(chunk)), end: () => decoder.end() };
  };

  // --- README example begins ---
  const bytes = new TextEncoder().encode(encodeMessageLine({ id: 1, method: 'executor/info' }) + 'x'.repeat(40) + '\n');
  const decoder = createLineDecoder({ maxLineBytes: 36 });
  decoder.push(bytes.subarray(0, 7)); // []: the line is not complete yet
  decoder.push(bytes.subarray(7)).map((frame) => frame._tag); // ['Message', 'LineTooLong']

  const [line] = createLineSplitter({ maxLineBytes: 36 }).push(bytes);
  const decoded = line?._tag === 'Line' ? decodeInboundBytes(line.bytes, { maxBytes: 36, maxDepth: 8 }) : undefined;
  if (decoded?._tag === 'Accepted') admitInbound(initialGateState, decoded.message, 8, true); // { decision: { _tag: 'Deliver' }, state }
  // --- README example ends ---

  expect(results).toMatchObject([
    [],
    [
      { _tag: 'Message', message: { id: 1, method: 'executor/info' } },
      { _tag: 'LineTooLong', limitBytes: 36 },
    ],
    { decision: { _tag: 'Deliver' } },
  ]);
});

test('README example: serving an untrusted peer', () => {
  const results: unknown[] = [];
  const { decodeInboundText, initialGateState } = jsonrpc;
  const inboundErrorReply = recording(results, jsonrpc.inboundErrorReply);
  const admitInbound = recording(results, jsonrpc.admitInbound);

  // --- README example begins ---
  const decoded = decodeInboundText('{"jsonrpc":"2.0","method":"$/cancelRequest"}', { maxBytes: 8 << 20, maxDepth: 64 });
  if (decoded._tag === 'Refused') inboundErrorReply(decoded.refusal); // null: a notification is dropped, unanswered
  const step = admitInbound(initialGateState, { id: 1, method: 'executor/info' }, 32, true); // { decision: { _tag: 'Deliver' }, state }
  // --- README example ends ---

  expect(step.state.inFlight.size).toBe(1);
  expect(results).toMatchObject([null, { decision: { _tag: 'Deliver' } }]);
});
