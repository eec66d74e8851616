/**
 * A bounded tail of a process' stderr: it keeps the last `limitBytes` bytes, whatever the process
 * writes, so a chatty or crashing child cannot grow our memory.
 */

/** Default bound of the stderr tail: 64 KiB. */
export const DEFAULT_STDERR_LIMIT_BYTES = 64 * 1024;

// Colour and cursor escapes (CSI sequences) that the app-server's tracing output carries.
// eslint-disable-next-line no-control-regex -- matching the ESC control character is the point
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** The last bytes of a stream, decoded as UTF-8 on demand. */
export class StderrTail {
  private chunks: Buffer[] = [];
  private size = 0;

  /** @param limitBytes how many trailing bytes to keep */
  constructor(private readonly limitBytes: number = DEFAULT_STDERR_LIMIT_BYTES) {}

  /** Appends a chunk, dropping the oldest bytes past the bound. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (this.limitBytes <= 0) return;
    if (bytes.length >= this.limitBytes) {
      this.chunks = [Buffer.from(bytes.subarray(bytes.length - this.limitBytes))];
      this.size = this.limitBytes;
      return;
    }
    this.chunks.push(bytes);
    this.size += bytes.length;
    while (this.size > this.limitBytes) {
      const first = this.chunks[0];
      if (first === undefined) break;
      const excess = this.size - this.limitBytes;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  /** The kept bytes as text, with terminal colour escapes removed. */
  text(): string {
    return Buffer.concat(this.chunks, this.size).toString('utf8').replace(ANSI_ESCAPE, '');
  }

  /** How many bytes are kept. */
  get byteLength(): number {
    return this.size;
  }
}
