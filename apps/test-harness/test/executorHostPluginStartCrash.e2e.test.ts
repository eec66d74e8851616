/**
 * The app-server dies while a new task waits for its plugins, end to end: the serve entry as a process
 * started with `--wait-for-plugin slow`, the real app-server, and `slow`, an MCP server over stdio that
 * never answers the first time Codex starts it and is the real forms plugin every later time.
 * `task/create` waits for `slow` to settle; the app-server is SIGKILLed meanwhile. No startup report can
 * come any more, so the wait ends at once as the retryable RuntimeUnavailable, and the executor runs the
 * request again on the restarted app-server, where the plugin starts: the host gets its task. Had the wait
 * run out its plugin timeout instead (30 s), the host would get PluginsNotReady.
 */
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import type { RuntimeStatus } from '@wework/host-protocol';
import { harnessCodexConfig } from '../src/CodexConfig.js';
import { startExecutorHost, type ExecutorHostClient } from '../src/host/ExecutorHostClient.js';
import { killAppServer } from './support/appServerProcess.js';

/** The restart backoff the executor is started with. */
const RESTART_BACKOFF_MS = 500;

interface Box {
  readonly root: string;
  readonly workspace: string;
  /** A line per start of `slow`, written as it starts. */
  readonly starts: string;
  readonly model: ScriptedModel;
  readonly host: ExecutorHostClient;
}

let box: Box | undefined;

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'harness-plugin-start-crash-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  const codexHome = join(dirs.executorHome, 'codex');
  await Promise.all([dirs.workspace, dirs.userHome, codexHome].map((dir) => mkdir(dir, { recursive: true })));
  const starts = join(root, 'slow-starts');
  const forms = checkPluginBuilt('forms');
  if (!forms.ok) throw new Error(`build the sample plugins first: ${forms.error.path}`);
  // The first start never answers `initialize` and ends with its input; later starts are the forms plugin.
  const slow = join(root, 'slow.mjs');
  await writeFile(
    slow,
    [
      `import { appendFileSync, existsSync } from 'node:fs';`,
      `import { spawnSync } from 'node:child_process';`,
      `const first = !existsSync(${JSON.stringify(starts)});`,
      `appendFileSync(${JSON.stringify(starts)}, process.pid + '\\n');`,
      `if (first) { process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); }`,
      `else process.exit(spawnSync(${JSON.stringify(forms.command.command)}, ${JSON.stringify(forms.command.args)}, { stdio: 'inherit' }).status ?? 1);`,
      '',
    ].join('\n'),
  );
  const model = await startScriptedModel({ script: [] });
  const config = harnessCodexConfig({ modelUrl: model.url, mcpServers: { slow: { command: process.execPath, args: [slow], default_tools_approval_mode: 'approve' } }, overrides: { mcp_servers: { slow: { startup_timeout_sec: 300 } } } });
  await writeFile(join(codexHome, 'config.toml'), stringifyToml(config), { mode: 0o600 });
  const host = await startExecutorHost({
    transport: 'stdio',
    ...dirs,
    waitForPlugins: ['slow'],
    env: { ...process.env, WEWORK_EXECUTOR_RESTART_BACKOFF_MS: String(RESTART_BACKOFF_MS) },
    cards: () => ({ action: 'cancel' }),
  });
  box = { root, workspace: dirs.workspace, starts, model, host };
  const info = await host.request('executor/info', {});
  if (info._tag === 'Left') throw new Error(`the executor did not start: ${info.left.message}\n${host.stderr()}`);
}, 120_000);

afterAll(async () => {
  await box?.host.close();
  await box?.model.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

/** Resolves once `path` exists (bounded by the test's timeout). */
async function exists(path: string): Promise<void> {
  for (;;) {
    if (await access(path).then(() => true, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the app-server dies while a task waits for its plugins', () => {
  it('the wait ends with the app-server, task/create runs again on the restarted one, and the host gets its task', async () => {
    if (box === undefined) throw new Error('no executor');
    const { host } = box;
    const created = host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    // Codex started the thread and its MCP server; the executor waits for `slow`, which never settles.
    await exists(box.starts);
    const ready = host.nextNotification<RuntimeStatus>('runtime/status', (status) => status.state === 'ready');
    await killAppServer(host.pid);
    expect(await ready).toMatchObject({ state: 'ready', crashes: 1 });
    expect(await created).toMatchObject({ right: { task: { taskId: 'task-1', threadId: expect.any(String) } } });
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toContain('request run again after the app-server ended runs=1 tag="RuntimeUnavailable"');
    expect(host.stderr()).not.toContain('PluginsNotReady');
    expect((await readFile(box.starts, 'utf8')).trim().split('\n')).toHaveLength(2);
  }, 60_000);
});
