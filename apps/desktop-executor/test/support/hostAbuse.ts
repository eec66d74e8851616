/**
 * What the hostile-host end-to-end tests share: the executor's serve entry started as a process with its
 * own temporary homes (the real app-server, the scripted model as its model), a reader of everything the
 * executor answers, its resident memory, and fast-check arbitraries of hostile host messages — params that
 * are wrong for every host method (so that no side-effecting method ever acts), `$/` notifications with
 * any params, responses to ids nobody asked, duplicate ids, deep nesting, invalid JSON.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { expect } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { startScriptedModel } from '@wework/scripted-model/node';
import { scriptedExecutorConfig } from '../../src/executorConfig.js';
import { HostRequests } from '@wework/host-protocol';
import { spawnServe } from './serveProcess.js';

/** A running serve entry. */
export interface ServedExecutor {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: () => string;
  /** Resolves with the exit code if the executor exits. */
  readonly exited: Promise<number | null>;
  readonly root: string;
}

/** Starts `serve.js` with `transportArgs`, temporary homes and the scripted model; cleanups undo it all. */
export async function startServeInSandbox(transportArgs: ReadonlyArray<string>, cleanups: Array<() => Promise<void>>): Promise<ServedExecutor> {
  const root = await mkdtemp(join(tmpdir(), 'executor-abuse-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script: [] });
  cleanups.push(() => model.close());
  const config = scriptedExecutorConfig(model.url, []);
  if (E.isLeft(config)) throw new Error('invalid config');
  await writeFile(join(dirs.executorHome, 'codex', 'config.toml'), stringifyToml(config.right), { mode: 0o600 });
  const served = spawnServe([...transportArgs, '--executor-home', dirs.executorHome, '--workspace', dirs.workspace], { ...process.env, HOME: dirs.userHome });
  cleanups.push(served.stop);
  return { child: served.child, stderr: served.stderr, exited: served.exited, root };
}

/** The first stdout line of a `--ws` executor: its endpoint. */
export async function announcedEndpoint(served: ServedExecutor): Promise<{ readonly port: number; readonly token: string }> {
  const line = await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: served.child.stdout }).once('line', resolve)),
    served.exited.then((code) => Promise.reject(new Error(`the executor exited (${code}) before listening:\n${served.stderr()}`))),
  ]);
  return JSON.parse(line) as { port: number; token: string };
}

/** The executor's resident memory in bytes (VmRSS of /proc/<pid>/status). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match?.[1] === undefined) throw new Error('no VmRSS');
  return Number(match[1]) * 1024;
}

/** Whether an answer is the retryable -32011 Overloaded. */
export const isOverloaded = (answer: Record<string, unknown>): boolean => (answer['error'] as { code?: unknown } | undefined)?.code === -32011;

/** Everything the executor answered, by id (as sent back), and a way to wait for one id. */
export class Replies {
  readonly byId = new Map<string, Array<Record<string, unknown>>>();
  readonly withoutId: Array<Record<string, unknown>> = [];
  private readonly waiters = new Map<string, () => void>();

  /** Records one message from the executor (notifications are ignored). */
  add(message: Record<string, unknown>): void {
    if (!('result' in message) && !('error' in message)) return;
    const id = message['id'];
    if (id === null || id === undefined) {
      this.withoutId.push(message);
      return;
    }
    const key = JSON.stringify(id);
    const list = this.byId.get(key) ?? [];
    list.push(message);
    this.byId.set(key, list);
    this.waiters.get(key)?.();
  }

  /** How many answers were recorded, with an id or without. */
  count(): number {
    let count = this.withoutId.length;
    for (const list of this.byId.values()) count += list.length;
    return count;
  }

  /** Resolves once at least `count` answers were recorded, or after `timeoutMs` (checked every 10 ms). */
  async atLeast(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.count() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Resolves once `id` has an answer; rejects after `timeoutMs` or when `failed` settles first. */
  wait(id: string | number, timeoutMs: number, failed: Promise<unknown>): Promise<Record<string, unknown>> {
    const key = JSON.stringify(id);
    const answered = this.byId.get(key)?.[0];
    if (answered !== undefined) return Promise.resolve(answered);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${key} within ${timeoutMs} ms`)), timeoutMs);
      void failed.then(() => reject(new Error(`the executor went away before answering ${key}`)));
      this.waiters.set(key, () => {
        clearTimeout(timer);
        this.waiters.delete(key);
        resolve(this.byId.get(key)?.[0] ?? {});
      });
    });
  }
}

type HostMethodName = keyof typeof HostRequests;
const methods = Object.keys(HostRequests) as HostMethodName[];

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

/**
 * A distinctive value the fuzz puts into wrong params (alone, or inside a longer string): no reply and
 * no log line may ever contain it, since the executor's messages never echo what a host sent.
 */
export const ECHO_MARKER = 'echo-marker-Qz7vX3';
const markerValue = fc.oneof(fc.constant(ECHO_MARKER), fc.string({ maxLength: 8 }).map((prefix) => `${prefix}${ECHO_MARKER}`), fc.constant([ECHO_MARKER]));
const fieldValues = fc.oneof(anyJson, fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), markerValue);

/**
 * Params that do not decode for `method` — never `null` or absent (those read as `{}`) and never an
 * object the method's codec accepts, so no method ever acts (no login started, no plugin installed,
 * no task created, no setting written).
 */
export const wrongParams = (method: HostMethodName): fc.Arbitrary<unknown> =>
  fc
    .oneof(
      anyJson,
      markerValue,
      fc.array(anyJson, { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('taskId', 'markdown', 'task', 'accountId', 'loginId', 'config', 'instructions', 'style', 'packagePath', 'plugin', 'prompt', 'workspace', 'x'), fieldValues, { maxKeys: 4 }),
    )
    .filter((value) => value !== null && value !== undefined && !HostRequests[method].params.is(value));

const requestId = fc.oneof(fc.integer({ min: 1_000_000, max: 9_000_000 }), fc.string({ minLength: 1, maxLength: 12 }).map((s) => `f-${s}`));

/** Methods that only read, safe to call with valid params. */
export const READ_ONLY_METHODS = ['executor/info', 'task/list', 'settings/read', 'models/list'] as const;

/** The ids and lines of `count` concurrent read-only requests (`c-0`, `c-1`, …), cycling through {@link READ_ONLY_METHODS}. */
export function concurrentReadOnlyRequests(count: number): { readonly ids: ReadonlyArray<string>; readonly lines: ReadonlyArray<string> } {
  const ids = Array.from({ length: count }, (_, i) => `c-${i}`);
  return { ids, lines: ids.map((id, i) => JSON.stringify({ jsonrpc: '2.0', id, method: READ_ONLY_METHODS[i % READ_ONLY_METHODS.length], params: {} })) };
}

/**
 * Checks the answers to a burst of concurrent requests: every id answered exactly once, each with a
 * result or the retryable -32011, some of each kind.
 */
export function expectEachAnsweredOnce(replies: Replies, ids: ReadonlyArray<string>, answers: ReadonlyArray<Record<string, unknown>>): void {
  let overloaded = 0;
  for (const [i, id] of ids.entries()) {
    expect(replies.byId.get(JSON.stringify(id)), id).toHaveLength(1);
    const answer = answers[i] ?? {};
    if ('error' in answer) {
      expect(answer['error']).toMatchObject({ code: -32011, data: { tag: 'Overloaded', retryable: true } });
      overloaded += 1;
    } else expect(answer).toHaveProperty('result');
  }
  expect(overloaded).toBeGreaterThan(0);
  expect(overloaded).toBeLessThan(ids.length);
}

/** One request of a burst that reuses ids, as a line (without a newline), and the id it carries. */
export interface ReusedIdRequest {
  readonly id: string | number;
  readonly line: string;
}

/**
 * `count` read-only requests whose ids are drawn (reproducibly, from `seed`) from `distinctIds` ids, as
 * numbers and as text (`3` and `"3"` are the same id to the executor): sent at once, some reuse an id
 * still in flight, some one already answered.
 */
export function reusedIdRequests(count: number, distinctIds: number, seed: number): ReadonlyArray<ReusedIdRequest> {
  const id = fc.integer({ min: 0, max: distinctIds - 1 }).chain((n) => fc.constantFrom<string | number>(n, `${n}`));
  const method = fc.constantFrom(...READ_ONLY_METHODS);
  return fc.sample(fc.record({ id, method }), { numRuns: count, seed }).map(({ id, method }) => ({ id, line: JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }) }));
}

/**
 * Sends `requests` in waves of 40 lines (`write` sends one wave). After every other wave it waits (at
 * most `timeoutMs`) for the answers to everything sent so far, so those ids are reused once answered;
 * the other waves follow at once and race the answers of the one before.
 */
export async function sendInWaves(requests: ReadonlyArray<ReusedIdRequest>, replies: Replies, write: (lines: ReadonlyArray<string>) => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const wave = 40;
  for (let start = 0; start < requests.length; start += wave) {
    await write(requests.slice(start, start + wave).map((request) => request.line));
    if ((start / wave) % 2 === 1) await replies.atLeast(Math.min(start + wave, requests.length), timeoutMs);
  }
}

/**
 * Checks the answers to a burst of requests that reuse ids: each request got exactly one answer. With
 * ids repeated an answer names its id only, so answers are counted per id (exactly as sent back) and
 * compared with the requests sent with that id; none may come back with id `null`. Each answer is a
 * result, the `-32600` `DuplicateRequestId` of a request whose id was in flight, or the retryable
 * `-32011`; the burst must have had both results and duplicates. Returns how many of each.
 */
export function expectEachReusedIdAnsweredOnce(replies: Replies, requests: ReadonlyArray<ReusedIdRequest>): { readonly results: number; readonly duplicates: number; readonly overloaded: number } {
  const sent = new Map<string, number>();
  for (const request of requests) sent.set(JSON.stringify(request.id), (sent.get(JSON.stringify(request.id)) ?? 0) + 1);
  const answered = [...sent.keys()].map((key) => [key, replies.byId.get(key)?.length ?? 0]);
  expect(Object.fromEntries(answered), 'answers per id').toEqual(Object.fromEntries(sent));
  expect([...replies.byId.keys()].filter((key) => !sent.has(key))).toEqual([]);
  expect(replies.withoutId).toEqual([]);
  const counts = { results: 0, duplicates: 0, overloaded: 0 };
  for (const answer of [...replies.byId.values()].flat()) {
    if ('result' in answer) counts.results += 1;
    else if (isOverloaded(answer)) counts.overloaded += 1;
    else {
      expect(answer['error']).toMatchObject({ code: -32600, data: { tag: 'DuplicateRequestId' } });
      counts.duplicates += 1;
    }
  }
  expect(counts.results).toBeGreaterThan(sent.size);
  expect(counts.duplicates).toBeGreaterThan(0);
  return counts;
}

/** The tags the protocol documents for the replies to malformed messages, by code (docs/host-protocol.md, "Error codes"). */
export const MALFORMED_TAGS: Readonly<Record<number, ReadonlyArray<string>>> = {
  [-32700]: ['NotJson', 'NotText', 'TooLarge', 'TooDeep'],
  [-32600]: ['NotJsonRpc', 'DuplicateRequestId'],
  [-32601]: ['MethodNotFound'],
  [-32602]: ['InvalidHostParams'],
};

/**
 * Checks that every error reply carries `data.tag` (a string), and that the replies to malformed messages
 * carry the tag the protocol documents for their code — the same whichever transport the host used.
 * Returns the codes seen with their tags.
 */
export function expectTaggedErrors(replies: Replies): ReadonlyMap<number, ReadonlySet<string>> {
  const seen = new Map<number, Set<string>>();
  for (const reply of [...replies.withoutId, ...[...replies.byId.values()].flat()]) {
    const error = reply['error'] as { code?: unknown; data?: { tag?: unknown } } | undefined;
    if (error === undefined) continue;
    expect(typeof error.data?.tag, JSON.stringify(error)).toBe('string');
    const code = error.code as number;
    const tag = error.data?.tag as string;
    if (code in MALFORMED_TAGS) expect(MALFORMED_TAGS[code], `${code} ${tag}`).toContain(tag);
    seen.set(code, (seen.get(code) ?? new Set()).add(tag));
  }
  return seen;
}

/** One hostile message as text (without a newline), and the request id it carries, if any. */
export interface HostileMessage {
  readonly text: string;
  readonly kind: string;
}

const line = (value: unknown): string => JSON.stringify(value);

/** Hostile messages of every kind the protocol must survive (none over the size limit: those are sent separately). */
export const hostileMessage: fc.Arbitrary<HostileMessage> = fc.oneof(
  fc.string({ maxLength: 80 }).filter((s) => !s.includes('\n')).map((text) => ({ text, kind: 'garbage' })),
  anyJson.map((value) => ({ text: line(value).slice(0, Math.max(1, line(value).length - 1)), kind: 'truncated JSON' })),
  anyJson.map((value) => ({ text: line(value), kind: 'JSON that is no message' })),
  fc.constantFrom(...methods).chain((method) => fc.record({ id: requestId, params: wrongParams(method) }).map(({ id, params }) => ({ text: line({ jsonrpc: '2.0', id, method, params }), kind: `wrong params for ${method}` }))),
  fc.record({ params: fc.option(anyJson, { nil: undefined }), method: fc.constantFrom('$/cancelRequest', '$/progress', '$/setTrace', '$/logTrace', '$/unknown') }).map(({ method, params }) => ({
    text: line(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }),
    kind: `${method} notification`,
  })),
  fc.record({ id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), result: anyJson }).map((response) => ({ text: line({ jsonrpc: '2.0', ...response }), kind: 'response to nobody' })),
  fc.record({ id: fc.oneof(fc.integer(), fc.string()), code: fc.integer(), message: fc.string() }).map(({ id, code, message }) => ({ text: line({ jsonrpc: '2.0', id, error: { code, message } }), kind: 'error response to nobody' })),
  fc.record({ id: fc.oneof(fc.constant(null), fc.constant(true), fc.constant({}), fc.constant([])), method: fc.constantFrom(...READ_ONLY_METHODS) }).map((request) => ({ text: line({ jsonrpc: '2.0', ...request }), kind: 'request with an unusable id' })),
  fc.record({ method: fc.oneof(fc.string({ maxLength: 20 }).filter((name) => !(methods as string[]).includes(name)), fc.constantFrom('rpc.x', 'card/show', 'initialize')), id: requestId }).map((request) => ({ text: line({ jsonrpc: '2.0', ...request, params: {} }), kind: 'unknown method' })),
  fc.record({ depth: fc.integer({ min: 65, max: 20_000 }), id: requestId, open: fc.constantFrom('[', '{"a":') }).map(({ depth, id, open }) => ({
    text: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"executor/info","params":${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}}`,
    kind: 'deep nesting',
  })),
  fc.record({ id: requestId, method: fc.constantFrom(...READ_ONLY_METHODS) }).map(({ id, method }) => {
    const text = line({ jsonrpc: '2.0', id, method, params: {} });
    return { text: `${text}\n${text}`, kind: 'duplicate id' };
  }),
  fc.record({ id: requestId, method: fc.constantFrom(...READ_ONLY_METHODS) }).map(({ id, method }) => ({
    text: `${line({ jsonrpc: '2.0', id, method, params: {} })}\n${line({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } })}`,
    kind: 'cancel of a request in flight',
  })),
);

/** Draws `count` hostile messages (reproducibly, from `seed`). */
export function hostileBatch(count: number, seed: number): ReadonlyArray<HostileMessage> {
  return fc.sample(hostileMessage, { numRuns: count, seed });
}
