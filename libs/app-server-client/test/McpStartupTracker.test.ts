import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { manualTimers, type ManualTimers } from '@wework/ports/testing';
import { createAppServerClient, trackMcpStartup, describeMcpStartupError, type AppServerClient } from '../src/index.js';

const clients: AppServerClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

/** A client over streams; on `timers` when given, else on Node's. */
function connected(timers?: ManualTimers) {
  const fromServer = new PassThrough();
  const toServer = new PassThrough();
  toServer.resume();
  const client = createAppServerClient({ input: fromServer, output: toServer, ...(timers === undefined ? {} : { timers }) });
  clients.push(client);
  return { client, send: (method: string, params: unknown) => fromServer.write(JSON.stringify({ method, params }) + '\n'), end: () => fromServer.end() };
}

const report = (name: string, status: string, error: string | null = null) => ({ threadId: null, name, environmentId: null, status, error, failureReason: null });

describe('trackMcpStartup', () => {
  it('resolves Right once every named server is ready, whatever the order of reports', async () => {
    const { client, send } = connected();
    const tracker = trackMcpStartup(client);
    const settled = tracker.whenSettled(['a', 'b'], 5_000);
    send('mcpServer/startupStatus/updated', report('a', 'starting'));
    send('mcpServer/startupStatus/updated', report('b', 'ready'));
    send('mcpServer/startupStatus/updated', report('a', 'ready'));
    const result = await settled;
    expect(E.isRight(result) && result.right.map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('resolves at once for servers already ready, and for no servers', async () => {
    const { client, send } = connected();
    const tracker = trackMcpStartup(client);
    send('mcpServer/startupStatus/updated', report('a', 'ready'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(E.isRight(await tracker.whenSettled(['a'], 5_000))).toBe(true);
    expect(await tracker.whenSettled([], 5_000)).toEqual(E.right([]));
  });

  it('reports a failed server with its error, and a server that never settles', async () => {
    const { client, send } = connected();
    const tracker = trackMcpStartup(client);
    const failed = tracker.whenSettled(['a'], 5_000);
    send('mcpServer/startupStatus/updated', report('a', 'failed', 'spawn ENOENT'));
    const result = await failed;
    expect(result).toMatchObject({ left: { _tag: 'McpServersFailed' } });
    if (E.isLeft(result)) expect(describeMcpStartupError(result.left)).toBe('MCP servers failed to start: a (failed: spawn ENOENT)');
    expect(await tracker.whenSettled(['never'], 30)).toEqual(E.left({ _tag: 'McpServersNotReady', pending: ['never'], timeoutMs: 30 }));
  });

  it('ends a wait as soon as the client ends, with the servers still pending, and leaves no deadline armed', async () => {
    const timers = manualTimers();
    const { client, send, end } = connected(timers);
    const tracker = trackMcpStartup(client);
    const waiting = tracker.whenSettled(['a', 'b'], 30_000);
    send('mcpServer/startupStatus/updated', report('a', 'ready'));
    end();
    const result = await waiting;
    expect(result).toEqual(E.left({ _tag: 'McpStartupAbandoned', pending: ['b'], cause: 'ClientEnded' }));
    if (E.isLeft(result)) expect(describeMcpStartupError(result.left)).toBe('MCP servers not ready: the app-server connection ended first: b');
    expect(timers.pending()).toBe(0);
    // A wait begun after the end does not wait for its timeout either; servers that had settled still count.
    expect(await tracker.whenSettled(['b'], 30_000)).toEqual(E.left({ _tag: 'McpStartupAbandoned', pending: ['b'], cause: 'ClientEnded' }));
    expect(await tracker.whenSettled(['a'], 30_000)).toMatchObject({ _tag: 'Right' });
    expect(timers.pending()).toBe(0);
  });

  it('ends every pending wait when disposed, cancels their deadlines, and stops following reports', async () => {
    const timers = manualTimers();
    const { client, send } = connected(timers);
    const tracker = trackMcpStartup(client);
    const first = tracker.whenSettled(['a'], 30_000);
    const second = tracker.whenSettled(['a', 'b'], 60_000);
    expect(timers.pending()).toBe(2);
    tracker.dispose();
    expect(await first).toEqual(E.left({ _tag: 'McpStartupAbandoned', pending: ['a'], cause: 'Disposed' }));
    expect(await second).toEqual(E.left({ _tag: 'McpStartupAbandoned', pending: ['a', 'b'], cause: 'Disposed' }));
    expect(timers.pending()).toBe(0);
    send('mcpServer/startupStatus/updated', report('a', 'ready'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tracker.latest.has('a')).toBe(false);
    const afterDispose = await tracker.whenSettled(['a'], 30_000);
    if (E.isLeft(afterDispose)) expect(describeMcpStartupError(afterDispose.left)).toBe('MCP servers not ready: the wait was given up: a');
    expect(afterDispose).toEqual(E.left({ _tag: 'McpStartupAbandoned', pending: ['a'], cause: 'Disposed' }));
  });

  it('property: every wait ends once, with what its reports, its deadline and the ends before it say, and leaves no deadline armed', async () => {
    const NAMES = ['a', 'b', 'c'] as const;
    type Status = 'starting' | 'ready' | 'failed' | 'cancelled';
    type Op = { readonly _tag: 'Report'; readonly name: string; readonly status: Status } | { readonly _tag: 'Advance'; readonly ms: number } | { readonly _tag: 'End' } | { readonly _tag: 'Dispose' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ _tag: fc.constant('Report' as const), name: fc.constantFrom(...NAMES), status: fc.constantFrom<Status>('starting', 'ready', 'failed', 'cancelled') }) },
      { weight: 3, arbitrary: fc.record({ _tag: fc.constant('Advance' as const), ms: fc.integer({ min: 1, max: 400 }) }) },
      { weight: 1, arbitrary: fc.constant({ _tag: 'End' as const }) },
      { weight: 1, arbitrary: fc.constant({ _tag: 'Dispose' as const }) },
    );
    const wait = fc.record({ names: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 }), timeoutMs: fc.integer({ min: 1, max: 1_000 }) });
    /** The tag a wait must end with, from the model: `undefined` while it may still be pending. */
    type Expected = 'Right' | 'McpServersFailed' | 'McpServersNotReady' | 'ClientEnded' | 'Disposed';
    const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    await fc.assert(
      fc.asyncProperty(fc.array(wait, { minLength: 1, maxLength: 3 }), fc.array(op, { maxLength: 12 }), async (waits, ops) => {
        const timers = manualTimers();
        const { client, send, end } = connected(timers);
        const tracker = trackMcpStartup(client);
        const latest = new Map<string, Status>();
        const settledTag = (names: ReadonlyArray<string>): Expected | undefined => {
          if (names.some((name) => (latest.get(name) ?? 'starting') === 'starting')) return undefined;
          return names.every((name) => latest.get(name) === 'ready') ? 'Right' : 'McpServersFailed';
        };
        const expected: Array<Expected | undefined> = waits.map((w) => settledTag(w.names));
        const got: Array<string | undefined> = waits.map(() => undefined);
        const endings = waits.map(() => 0);
        waits.forEach((w, i) =>
          void tracker.whenSettled(w.names, w.timeoutMs).then((result) => {
            endings[i] = (endings[i] ?? 0) + 1;
            got[i] = E.isRight(result) ? 'Right' : result.left._tag === 'McpStartupAbandoned' ? result.left.cause : result.left._tag;
          }),
        );
        await flush();
        let now = 0;
        for (const step of ops) {
          if (step._tag === 'Report') {
            latest.set(step.name, step.status);
            send('mcpServer/startupStatus/updated', report(step.name, step.status));
            waits.forEach((w, i) => (expected[i] ??= settledTag(w.names)));
          } else if (step._tag === 'Advance') {
            now += step.ms;
            timers.advance(step.ms);
            waits.forEach((w, i) => (expected[i] ??= now >= w.timeoutMs ? 'McpServersNotReady' : undefined));
          } else {
            if (step._tag === 'End') end();
            else tracker.dispose();
            waits.forEach((_, i) => (expected[i] ??= step._tag === 'End' ? 'ClientEnded' : 'Disposed'));
          }
          await flush();
          await flush();
          if (step._tag === 'End' || step._tag === 'Dispose') break;
        }
        expect(got).toEqual(expected);
        expect(endings.every((count, i) => count === (expected[i] === undefined ? 0 : 1))).toBe(true);
        expect(timers.pending()).toBe(expected.filter((tag) => tag === undefined).length);
        tracker.dispose();
      }),
      { numRuns: 150 },
    );
  });
});
