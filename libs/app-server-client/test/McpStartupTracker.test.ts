import { PassThrough } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServerClient, trackMcpStartup, describeMcpStartupError, type AppServerClient } from '../src/index.js';

const clients: AppServerClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

function connected(): { readonly client: AppServerClient; readonly send: (method: string, params: unknown) => void } {
  const fromServer = new PassThrough();
  const toServer = new PassThrough();
  toServer.resume();
  const client = createAppServerClient({ input: fromServer, output: toServer });
  clients.push(client);
  return { client, send: (method, params) => fromServer.write(JSON.stringify({ method, params }) + '\n') };
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
});
