/**
 * A crash loop still refuses, end to end: the serve entry runs a Codex (`WEWORK_CODEX_PATH`) that starts
 * the real app-server once and exits at once on every later start, with a short constant restart
 * backoff. After a SIGKILL the app-server never comes back: a `message/send` made at once waits while
 * it restarts and is answered `-32012 RuntimeUnavailable` with `retryable: false` as soon as
 * `runtime/status` says `failed` (the crash-loop limit, 5 crashes within 60 s), long before the wait's
 * bound; a request made afterwards is refused at once, the same way; requests that need no Codex answer
 * as usual.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCodexCommand } from '@wework/app-server-client/node';
import { respond, say } from '@wework/scripted-model';
import type { RuntimeStatus } from '@wework/host-protocol';
import { killAppServer } from './support/appServerProcess.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';

const RESTART_BACKOFF_MS = 100;

let box: HostBox;
/** The count of Codex starts, written by the wrapper at each start. */
const startsOf = (root: string): string => join(root, 'starts');

const quoted = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`;

/** A Codex that runs the installed one on its first start and exits at once (code 1) on every later one. */
async function codexThatStartsOnce(root: string, starts: string): Promise<string> {
  const codex = resolveCodexCommand();
  if (E.isLeft(codex)) throw new Error(codex.left.message);
  const { command, args, pathPrepend } = codex.right;
  const script = [
    '#!/bin/sh',
    `count=$(cat ${quoted(starts)} 2>/dev/null || echo 0)`,
    'count=$((count + 1))',
    `echo "$count" > ${quoted(starts)}`,
    'if [ "$count" -gt 1 ]; then echo "this codex starts only once (start $count)" >&2; exit 1; fi',
    ...(pathPrepend.length === 0 ? [] : [`PATH=${quoted(pathPrepend.join(':'))}:"$PATH"; export PATH`]),
    `exec ${[command, ...args].map(quoted).join(' ')} "$@"`,
    '',
  ].join('\n');
  const path = join(root, 'codex-once.sh');
  await writeFile(path, script);
  await chmod(path, 0o755);
  return path;
}

beforeAll(async () => {
  box = await startHostBox({
    prefix: 'harness-host-crash-loop-',
    script: [respond(say('First reply.'))],
    env: { WEWORK_EXECUTOR_RESTART_BACKOFF_MS: String(RESTART_BACKOFF_MS) },
    cards: () => ({ action: 'cancel' }),
    prepare: async ({ root }) => ({ WEWORK_CODEX_PATH: await codexThatStartsOnce(root, startsOf(root)) }),
  });
}, 120_000);

afterAll(async () => {
  await box?.close();
});

describe('a crash loop still refuses', () => {
  it('a send made at once after the kill waits, then is refused -32012, not retryable, once the runtime failed', async () => {
    const { host } = box;
    const created = await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    if (created._tag === 'Left') throw new Error(`task/create failed: ${created.left.message}`);
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Message one.' })).toMatchObject({ right: { status: 'completed' } });

    const failed = host.nextNotification<RuntimeStatus>('runtime/status', (status) => status.state === 'failed');
    await killAppServer(host.pid);
    const sentAt = Date.now();
    const sent = await host.request('message/send', { taskId: 'task-1', markdown: 'Message two.' });
    const answeredMs = Date.now() - sentAt;
    expect(sent).toMatchObject({ left: { code: -32012, data: { tag: 'RuntimeUnavailable', retryable: false } } });
    expect(sent._tag === 'Left' ? sent.left.message : '').toContain('not restarted any more');
    expect(await failed).toMatchObject({ state: 'failed', crashes: 5, reason: expect.stringContaining('did not start') });
    // Refused when the crash loop was told, not at the bound.
    expect(answeredMs).toBeLessThan(20_000);
    expect(Number(await readFile(startsOf(box.root), 'utf8'))).toBe(5);
    console.info(`message/send during a crash loop was refused after ${answeredMs} ms`);
  });

  it('after failed, requests that need Codex are refused at once, not retryable; the others answer', async () => {
    const { host } = box;
    for (const answer of [
      await host.request('message/send', { taskId: 'task-1', markdown: 'Message three.' }),
      await host.request('models/list', {}),
      await host.request('task/create', { taskId: 'task-2', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } }),
    ]) {
      expect(answer).toMatchObject({ left: { code: -32012, data: { tag: 'RuntimeUnavailable', retryable: false } } });
    }
    expect(await host.request('executor/info', {})).toMatchObject({ right: { runtime: { state: 'failed', crashes: 5 } } });
    expect(await host.request('task/list', {})).toMatchObject({ right: { tasks: [expect.objectContaining({ taskId: 'task-1' })] } });
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toContain('request refused while the app-server is not ready');
  });
});
