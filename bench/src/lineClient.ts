/**
 * The baseline of the turn benchmark: the smallest client that can drive a turn — raw
 * newline-delimited JSON written to the app-server's stdin, stdout split on newlines, no decoding
 * beyond `JSON.parse`, no validation.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

type Message = { id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** A minimal line-pipe JSON-RPC client over a spawned app-server. */
export class LineClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private nextId = 1;
  private readonly pending = new Map<number, (message: Message) => void>();
  private readonly listeners = new Set<(message: Message) => void>();

  constructor(command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, cwd: string) {
    this.child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stderr.resume();
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline = this.buffer.indexOf('\n');
      while (newline >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim() !== '') this.dispatch(JSON.parse(line) as Message);
        newline = this.buffer.indexOf('\n');
      }
    });
  }

  /** The spawned process's id (its process group's, too). */
  get pid(): number {
    return this.child.pid ?? 0;
  }

  private dispatch(message: Message): void {
    if (message.method === undefined && typeof message.id === 'number') {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
      return;
    }
    for (const listener of this.listeners) listener(message);
  }

  /** Sends a request and resolves with the raw reply; rejects when none came within `timeoutMs`. */
  request(method: string, params: unknown, timeoutMs = 120_000): Promise<Message> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }) + '\n');
  }

  /** Resolves with the first notification satisfying `predicate`. */
  waitFor(predicate: (message: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => {
      const listener = (message: Message): void => {
        if (!predicate(message)) return;
        this.listeners.delete(listener);
        resolve(message);
      };
      this.listeners.add(listener);
    });
  }

  /**
   * Ends the process and waits for its exit: with `graceful`, closes stdin first and waits up to
   * 10 s (a process that stops its own children on end of input); then kills the process group.
   */
  async close(graceful = false): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    const running = (): boolean => this.child.exitCode === null && this.child.signalCode === null;
    if (graceful && running()) {
      this.child.stdin.end();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    }
    if (running()) {
      try {
        process.kill(-(this.child.pid ?? 0), 'SIGKILL');
      } catch {
        this.child.kill('SIGKILL');
      }
      await exited;
    }
  }
}
