import { PassThrough } from 'node:stream';
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
});
