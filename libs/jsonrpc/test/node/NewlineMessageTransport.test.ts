import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeMessageLine } from '../../src/index.js';
import { NewlineMessageReader, NewlineMessageWriter } from '../../src/node/index.js';
import type { FramingError } from '../../src/index.js';
import { chunked, cuts, jsonRpcMessage } from '../arbitraries.js';

describe('NewlineMessageReader', () => {
  it('hands vscode-jsonrpc every message in order, with "jsonrpc" filled in, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(jsonRpcMessage, { maxLength: 6 }), cuts, async (messages, at) => {
        const input = new PassThrough();
        const reader = new NewlineMessageReader(input);
        const received: unknown[] = [];
        const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
        reader.listen((message) => received.push(message));
        for (const chunk of chunked(new TextEncoder().encode(messages.map(encodeMessageLine).join('')), at)) input.write(chunk);
        input.end();
        await closed;
        expect(received).toEqual(messages.map((message) => ({ jsonrpc: '2.0', ...message })));
        reader.dispose();
      }),
      { numRuns: 50 },
    );
  });

  it('reports framing errors, keeps reading, and accepts string chunks', async () => {
    const input = new PassThrough();
    input.setEncoding('utf8');
    const reader = new NewlineMessageReader(input, { maxLineBytes: 40 });
    const errors: FramingError[] = [];
    const received: unknown[] = [];
    reader.onFramingError((error) => errors.push(error));
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
    reader.listen((message) => received.push(message));
    input.end(`garbage\n{"method":"${'x'.repeat(50)}"}\n{"method":"ok","params":{"s":"é"}}\n`);
    await closed;
    expect(errors.map((error) => error._tag)).toEqual(['MalformedMessage', 'LineTooLong']);
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'ok', params: { s: 'é' } }]);
  });
});

describe('NewlineMessageWriter', () => {
  it('writes one line per message, in call order', async () => {
    const output = new PassThrough();
    const writer = new NewlineMessageWriter(output);
    await Promise.all([writer.write({ jsonrpc: '2.0' }), writer.write({ jsonrpc: '2.0', method: 'a' } as never)]);
    // Everything buffered, chunk by chunk: Node 26's `read()` hands out one written chunk at a time.
    let text = '';
    for (let chunk: Buffer | null = output.read() as Buffer | null; chunk !== null; chunk = output.read() as Buffer | null) text += chunk.toString('utf8');
    expect(text).toBe('{"jsonrpc":"2.0"}\n{"jsonrpc":"2.0","method":"a"}\n');
  });

  it('rejects and reports an error when the stream is gone, and never throws', async () => {
    const output = new PassThrough();
    const writer = new NewlineMessageWriter(output);
    const errors: unknown[] = [];
    writer.onError(([error]) => errors.push(error.message));
    output.destroy();
    await expect(writer.write({ jsonrpc: '2.0' })).rejects.toThrow('closed');
    expect(errors).toEqual(['the output stream is closed']);
    writer.dispose();
    // A late stream error after dispose is swallowed, not thrown.
    output.emit('error', new Error('EPIPE'));
  });
});
