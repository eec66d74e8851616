/**
 * The executor's serve entry as a child process: {@link spawnServe} starts it with any transport (the
 * one place that spawns it), {@link startServe} adds a minimal host on its stdin/stdout (`--stdio`, one
 * JSON-RPC message per line): requests with a bounded wait for their answer, notifications kept (`notifications`),
 * requests from the executor declined. For end-to-end tests of the executor process itself (start-up,
 * its home, its plugin management, hostile hosts); a stop or close never leaves a process behind.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { decodeHostResult, HostRequests, type HostMethod, type HostParamsOf, type HostResultOf } from '@wework/host-protocol';

/** The built serve entry. */
export const SERVE = fileURLToPath(new URL('../../dist/serve.js', import.meta.url));

/** An answer of the executor. */
export type ServeAnswer = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** A running executor process. */
export interface ServeProcess {
  readonly pid: number;
  /** Sends a request; rejects when no answer came within `timeoutMs` (default 120 s) or the process exited. */
  request(method: string, params: object, timeoutMs?: number): Promise<ServeAnswer>;
  stderr(): string;
  /** Everything it wrote to stdout so far (answers and notifications, one per line). */
  stdout(): string;
  /** The notifications received so far (of one method, if given), in order. */
  notifications(method?: string): ReadonlyArray<{ readonly method: string; readonly params: unknown }>;
  /** Resolves with the exit code once the process exited. */
  readonly exited: Promise<number | null>;
  /** Closes stdin (the executor ends), then SIGKILL after a bound; resolves once it exited. */
  close(): Promise<void>;
}

/** A spawned serve entry, whatever its transport. */
export interface SpawnedServe {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the process exited. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after a bound; resolves once it exited. */
  stop(): Promise<void>;
}

/** Spawns `serve.js` (or `entry`, a copy of it) with `args` (the transport flag included) and `env`. */
export function spawnServe(args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, entry: string = SERVE): SpawnedServe {
  const child = spawn(process.execPath, [entry, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, stderr: () => stderr, exited, stop };
}

/** Starts `serve.js --stdio` (or `entry`, a copy of it) with `args` and `env`. */
export function startServe(args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, entry: string = SERVE): ServeProcess {
  const { child, stderr: stderrText, exited } = spawnServe(['--stdio', ...args], env, entry);
  const pending = new Map<number, (answer: ServeAnswer) => void>();
  const received: Array<{ readonly method: string; readonly params: unknown }> = [];
  let nextId = 1;
  let stdout = '';
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout += `${line}\n`;
    let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return;
    }
    if (typeof message.method === 'string') {
      if (message.id !== undefined) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not handled by this host' } })}\n`);
      else received.push({ method: message.method, params: message.params });
      return;
    }
    if (typeof message.id === 'number') pending.get(message.id)?.(message as ServeAnswer);
  });
  const request = (method: string, params: object, timeoutMs = 120_000): Promise<ServeAnswer> => {
    const id = nextId++;
    return new Promise<ServeAnswer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${timeoutMs} ms\n${stderrText()}`)), timeoutMs);
      const done = (answer: ServeAnswer): void => {
        clearTimeout(timer);
        pending.delete(id);
        resolve(answer);
      };
      pending.set(id, done);
      void exited.then((code) => {
        if (!pending.has(id)) return;
        clearTimeout(timer);
        pending.delete(id);
        reject(new Error(`the executor exited (${code}) before answering ${method}\n${stderrText()}`));
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  };
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const notifications = (method?: string) => received.filter((note) => method === undefined || note.method === method);
  return { pid: child.pid ?? -1, request, stderr: stderrText, stdout: () => stdout, notifications, exited, close };
}

/** An error reply of the executor. */
export type ServeError = Extract<ServeAnswer, { readonly error: unknown }>['error'];

/** Requests whose results are decoded with the method's codec of `@wework/host-protocol`. */
export interface TypedHost {
  /** The decoded result, or the error reply as `Left`; a result that does not fit the protocol throws. */
  call<M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<E.Either<ServeError, HostResultOf<M>>>;
  /** The decoded result; an error reply throws (with the end of the executor's stderr). */
  ok<M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<HostResultOf<M>>;
  /** The error reply's code, message and `data.tag`; a success throws. */
  refused<M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<{ readonly code: number; readonly message: string; readonly tag: unknown }>;
}

/** Typed requests to the executor `executor()` returns (a function, so a test may restart it), each waiting at most `timeoutMs`. */
export function typedHost(executor: () => ServeProcess, timeoutMs = 90_000): TypedHost {
  const call = async <M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<E.Either<ServeError, HostResultOf<M>>> => {
    const answer = await executor().request(method, params, timeoutMs);
    if ('error' in answer) return E.left(answer.error);
    const decoded = decodeHostResult(HostRequests[method], answer.result);
    if (E.isLeft(decoded)) throw new Error(`the result of ${method} does not fit the protocol: ${decoded.left.message}`);
    return E.right(decoded.right as HostResultOf<M>);
  };
  const ok = async <M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<HostResultOf<M>> => {
    const answer = await call(method, params);
    if (E.isLeft(answer)) throw new Error(`${method} failed: ${answer.left.code} ${answer.left.message}\n${executor().stderr().slice(-4000)}`);
    return answer.right;
  };
  const refused = async <M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<{ readonly code: number; readonly message: string; readonly tag: unknown }> => {
    const answer = await call(method, params);
    if (E.isRight(answer)) throw new Error(`${method} succeeded: ${JSON.stringify(answer.right)}`);
    return { code: answer.left.code, message: answer.left.message, tag: (answer.left.data as { tag?: unknown } | undefined)?.tag };
  };
  return { call, ok, refused };
}
