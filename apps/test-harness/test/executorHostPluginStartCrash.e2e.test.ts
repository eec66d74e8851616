/**
 * The app-server dies while a new task waits for its plugins, end to end: the serve entry as a process
 * started with `--wait-for-plugin slow`, the real app-server, and `slow`, an MCP server over stdio that
 * never answers the first time Codex starts it and is the real forms plugin every later time.
 * `task/create` waits for `slow` to settle; the app-server is SIGKILLed meanwhile. No startup report can
 * come any more, so the wait ends at once as the retryable RuntimeUnavailable, and the executor runs the
 * request again on the restarted app-server, where the plugin starts: the host gets its task. Had the wait
 * run out its plugin timeout instead (30 s), the host would get PluginsNotReady.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import type { RuntimeStatus } from '@wework/host-protocol';
import { killAppServer } from './support/appServerProcess.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';
import { until } from '@wework/test-support';

/** The restart backoff the executor is started with. */
const RESTART_BACKOFF_MS = 500;

let box: HostBox | undefined;
/** A line per start of `slow`, written as it starts. */
const startsOf = (root: string): string => join(root, 'slow-starts');

/** `slow`: its first start never answers `initialize` and ends with its input; later starts are the forms plugin. */
async function writeSlowServer(path: string, starts: string, forms: { readonly command: string; readonly args: ReadonlyArray<string> }): Promise<void> {
  await writeFile(
    path,
    [
      `import { appendFileSync, existsSync } from 'node:fs';`,
      `import { spawnSync } from 'node:child_process';`,
      `const first = !existsSync(${JSON.stringify(starts)});`,
      `appendFileSync(${JSON.stringify(starts)}, process.pid + '\\n');`,
      `if (first) { process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); }`,
      `else process.exit(spawnSync(${JSON.stringify(forms.command)}, ${JSON.stringify(forms.args)}, { stdio: 'inherit' }).status ?? 1);`,
      '',
    ].join('\n'),
  );
}

beforeAll(async () => {
  const forms = checkPluginBuilt('forms');
  if (!forms.ok) throw new Error(`build the sample plugins first: ${forms.error.path}`);
  const slowPath = (root: string): string => join(root, 'slow.mjs');
  box = await startHostBox({
    prefix: 'harness-plugin-start-crash-',
    mcpServers: ({ root }) => ({ slow: { command: process.execPath, args: [slowPath(root)], default_tools_approval_mode: 'approve' } }),
    configOverrides: { mcp_servers: { slow: { startup_timeout_sec: 300 } } },
    waitForPlugins: ['slow'],
    env: { WEWORK_EXECUTOR_RESTART_BACKOFF_MS: String(RESTART_BACKOFF_MS) },
    cards: () => ({ action: 'cancel' }),
    prepare: ({ root }) => writeSlowServer(slowPath(root), startsOf(root), forms.command),
  });
}, 120_000);

afterAll(async () => {
  await box?.close();
});

describe('the app-server dies while a task waits for its plugins', () => {
  it('the wait ends with the app-server, task/create runs again on the restarted one, and the host gets its task', async () => {
    if (box === undefined) throw new Error('no executor');
    const { host } = box;
    const created = host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    // Codex started the thread and its MCP server; the executor waits for `slow`, which never settles.
    await until('the first start of slow', () => existsSync(startsOf(box?.root ?? '')), 30_000);
    const ready = host.nextNotification<RuntimeStatus>('runtime/status', (status) => status.state === 'ready');
    await killAppServer(host.pid);
    expect(await ready).toMatchObject({ state: 'ready', crashes: 1 });
    expect(await created).toMatchObject({ right: { task: { taskId: 'task-1', threadId: expect.any(String) } } });
    // The executor's wait for the plugin is what the app-server's end cut short (not thread/start).
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toContain('plugin wait ended with the app-server pending=1');
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toContain('request run again after the app-server ended runs=1 tag="RuntimeUnavailable"');
    expect(host.stderr()).not.toContain('PluginsNotReady');
    expect((await readFile(startsOf(box.root), 'utf8')).trim().split('\n')).toHaveLength(2);
  }, 60_000);
});
