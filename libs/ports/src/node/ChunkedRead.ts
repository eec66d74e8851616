/**
 * The one read-until-end loop over an open file: bounded memory, one buffer reused for every chunk.
 * Reading goes through the descriptor the caller already holds (opened with `O_NOFOLLOW` where a link
 * must not be followed), never through the path again.
 */
import type { FileHandle } from 'node:fs/promises';

/** Options of {@link forEachChunk}. */
export interface ChunkedReadOptions {
  /** How many bytes to ask for next, given the bytes read so far (at least 1); default the buffer's size. */
  readonly length?: (total: number) => number;
  /** Wraps every read (for example with a timeout); default runs it as it is. */
  readonly around?: <A>(run: () => Promise<A>) => Promise<A>;
}

/**
 * Reads `handle` from its current position to the end into `buffer`, calling `onChunk` with each
 * chunk (a view of `buffer`, valid until `onChunk` settles) and the bytes read so far. A throwing or
 * rejecting `onChunk` stops the read. Resolves with the total bytes read.
 *
 * @example
 * ```ts
 * const hash = createHash('sha256');
 * await forEachChunk(handle, Buffer.allocUnsafe(1 << 20), (chunk) => void hash.update(chunk));
 * ```
 */
export const forEachChunk = async (
  handle: FileHandle,
  buffer: Buffer,
  onChunk: (chunk: Buffer, total: number) => void | Promise<void>,
  options: ChunkedReadOptions = {},
): Promise<number> => {
  const around = options.around ?? (<A>(run: () => Promise<A>): Promise<A> => run());
  let total = 0;
  for (;;) {
    const length = options.length?.(total) ?? buffer.length;
    const { bytesRead } = await around(() => handle.read(buffer, 0, length, null));
    if (bytesRead === 0) return total;
    total += bytesRead;
    await onChunk(buffer.subarray(0, bytesRead), total);
  }
};
