/**
 * A cloud device for end-to-end tests: an executor home whose Codex home talks to the scripted model
 * (the Codex sandbox of `@wework/test-support`, with Codex's plugin system on so installed plugins'
 * skills load), an isolated Claude home, a downloads directory with unpacked plugin packages, and the
 * executor started on them with a fake clock and a hand-fired retry timer.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { ThreadStart } from '@wework/codex-protocol';
import { describeClientError, isTurnEnded, runTurn as runClientTurn } from '@wework/app-server-client';
import { respond, say } from '@wework/scripted-model';
import type { ScriptedModel } from '@wework/scripted-model/node';
import { startCodexSandbox } from '@wework/test-support';
import type { TransactionPorts } from '@wework/sync-transaction';
import { createNodePorts } from '@wework/sync-transaction/node';
import type { CloudConfig } from '../../src/CloudConfig.js';
import { startCloudExecutor, type CloudExecutor } from '../../src/CloudExecutor.js';
import type { Timer } from '@wework/ports';
import type { LogEntry } from '@wework/ports';

/** Directories of a device. */
export interface DeviceDirs {
  readonly root: string;
  readonly executorHome: string;
  readonly codexHome: string;
  readonly claudeHome: string;
  readonly userHome: string;
  readonly workspace: string;
  readonly downloads: string;
}

/** A fake clock and a timer the test fires by hand. */
export interface ManualTime {
  readonly clock: { now(): number };
  readonly timer: Timer;
  advance(ms: number): void;
  /** The armed deadline, or `null`. */
  armedAt(): number | null;
  /** Fires the armed timer (the clock must have reached its deadline). */
  fire(): void;
}

export function manualTime(start = 1_700_000_000_000): ManualTime {
  let now = start;
  let armed: { at: number; fire: () => void } | null = null;
  return {
    clock: { now: () => now },
    timer: { set: (at, fire) => void (armed = { at, fire }), clear: () => void (armed = null) },
    advance: (ms) => void (now += ms),
    armedAt: () => armed?.at ?? null,
    fire: () => {
      const current = armed;
      if (current === null) throw new Error('no timer armed');
      if (now < current.at) throw new Error(`the timer is due at ${current.at}, the clock reads ${now}`);
      armed = null;
      current.fire();
    },
  };
}

const cleanups: Array<() => Promise<void>> = [];

/** Runs (in reverse order) and forgets every cleanup registered so far; call from `afterEach`. */
export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/** Registers a cleanup. */
export const onCleanUp = (cleanup: () => Promise<void>): void => void cleanups.push(cleanup);

/** A device with its Codex home configured for the scripted model (which answers `turns` turns). */
export async function device(turns: number): Promise<{ readonly dirs: DeviceDirs; readonly model: ScriptedModel }> {
  const box = await startCodexSandbox({
    script: Array.from({ length: turns }, (_, i) => respond(say(`answer ${i + 1}`))),
    prefix: 'cloud-executor-',
    layout: { codexHome: 'executor/codex', home: 'user', workspace: 'workspace' },
    directories: ['executor/claude', 'downloads'],
    config: () => ({ features: { plugins: true } }),
  });
  onCleanUp(() => box.dispose());
  const dirs: DeviceDirs = {
    root: box.root,
    executorHome: box.path('executor'),
    codexHome: box.codexHome,
    claudeHome: box.path('executor/claude'),
    userHome: box.home,
    workspace: box.workspace,
    downloads: box.path('downloads'),
  };
  return { dirs, model: box.model };
}

/** The process environment without the variables the tests set themselves. */
export function baseEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['WEGENT_CODEX_HOME', 'WEGENT_PLUGIN_RUNTIME_TARGET', 'WEWORK_EXECUTOR_HOME', 'WEWORK_CLAUDE_HOME', 'WEWORK_WORKSPACE']) delete env[name];
  return env;
}

/** A pure-skill plugin package as the download step unpacks it; returns its directory. */
export async function skillPackage(dirs: DeviceDirs, name: string, version: string, skill = 'standup'): Promise<string> {
  const dir = join(dirs.downloads, `${name}-${version}`);
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills', skill), { recursive: true });
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name, version, description: 'Team rituals', skills: './skills/' }));
  await writeFile(join(dir, 'skills', skill, 'SKILL.md'), `---\nname: ${skill}\ndescription: Writes the daily ${skill} note (v${version})\n---\n\nList yesterday, today, blockers.\n`);
  return dir;
}

/** A started executor with what the test observes of it. */
export interface Running {
  readonly executor: CloudExecutor;
  /** Every status line written, parsed. */
  readonly statuses: unknown[];
  readonly log: LogEntry[];
  readonly time: ManualTime;
}

/** Starts the executor on `dirs` (Codex-only unless told otherwise); disposed at clean-up. */
export async function startOn(dirs: DeviceDirs, options: { readonly ports?: TransactionPorts; readonly runtimeTarget?: CloudConfig['runtimeTarget'] } = {}): Promise<Running> {
  const statuses: unknown[] = [];
  const log: LogEntry[] = [];
  const time = manualTime();
  const started = await startCloudExecutor({
    config: { runtimeTarget: options.runtimeTarget ?? 'codex', executorHome: dirs.executorHome, claudeHome: dirs.claudeHome, workspace: dirs.workspace, userHome: dirs.userHome, codexPath: null },
    env: baseEnv(),
    ports: options.ports ?? createNodePorts({ durability: 'none' }),
    clock: time.clock,
    timer: time.timer,
    status: (line) => statuses.push(JSON.parse(line)),
    log: (entry) => log.push(entry),
  });
  if (E.isLeft(started)) throw new Error(`${started.left._tag}: ${started.left.reason}`);
  onCleanUp(() => started.right.dispose());
  return { executor: started.right, statuses, log, time };
}

/** A desired-state message line. */
export const desiredState = (revision: number, plugins: ReadonlyArray<{ readonly name: string; readonly marketplace: string; readonly version: string; readonly path: string }>): string =>
  JSON.stringify({ type: 'desiredState', revision, plugins: plugins.map(({ path, ...plugin }) => ({ ...plugin, package: { path } })) });

/** Starts a thread on the executor's app-server. */
export async function startThread(executor: CloudExecutor, cwd: string): Promise<string> {
  const server = executor.runtime.current();
  if (server === null) throw new Error('no app-server');
  const thread = await server.client.request(ThreadStart, { cwd });
  if (E.isLeft(thread)) throw new Error(describeClientError(thread.left));
  return thread.right.thread.id;
}

/** Runs one turn on the executor's current app-server and waits for it to complete. */
export async function runTurn(executor: CloudExecutor, threadId: string, text: string): Promise<string> {
  const server = executor.runtime.current();
  if (server === null) throw new Error('no app-server');
  const outcome = await runClientTurn(server.client, { threadId, input: [{ type: 'text', text, text_elements: [] }] });
  if (outcome._tag === 'StartFailed') throw new Error(describeClientError(outcome.error));
  if (!isTurnEnded(outcome)) throw new Error(`the turn did not complete: ${outcome._tag}`);
  return outcome.turn.status;
}
