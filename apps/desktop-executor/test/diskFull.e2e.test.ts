/**
 * A full disk, as a user's machine fails: the executor home (with the Codex home in it) on a 12 MiB
 * tmpfs filled to a few KiB, then every mutation of the host protocol tried through the real executor
 * process and its real app-server (a scripted model), then the space freed and every mutation tried
 * again. Each answer is a typed error (a documented code and tag, no path, no text of Codex or the OS)
 * or a success that is true on disk; no temporary file is left after an answer; `executor/info` and
 * `accounts/list` answer throughout.
 *
 * Mounting a tmpfs needs root (CI runs as root); elsewhere the tests are skipped, saying why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { mkdir, open, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostErrorCode, HostErrorData } from '@wework/host-protocol';
import { respond, say, scriptedModelCodexConfig } from '@wework/scripted-model';
import { startScriptedModel, withMachineLock, type ScriptedModel } from '@wework/scripted-model/node';
import { writeLocalMarketplace } from '@wework/test-support';
import { startServe, typedHost, type ServeAnswer, type ServeProcess } from './support/serveProcess.js';

/** Tries to mount a 12 MiB tmpfs on `dir`; the reason it could not, or `null` once mounted. */
function mountTmpfs(dir: string): string | null {
  if (process.platform !== 'linux') return 'needs Linux to mount a tmpfs';
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=12m,mode=0700', 'tmpfs', dir], { encoding: 'utf8' });
  return mounted.status === 0 ? null : 'needs root to mount a tmpfs';
}

const root = mkdtempSync(join(tmpdir(), 'executor-diskfull-'));
const executorHome = join(root, 'executor');
mkdirSync(executorHome);
const skipReason = mountTmpfs(executorHome);
if (skipReason !== null) {
  rmSync(root, { recursive: true, force: true });
  console.log(`diskFull.e2e: skipped, ${skipReason}`);
}

const codexHome = join(executorHome, 'codex');
const filler = join(executorHome, 'filler');
const markets = { alpha: join(root, 'market-alpha'), beta: join(root, 'market-beta') };
const documented = new Set<number>(Object.values(HostErrorCode));
/** What is left free while the disk is full: less than one 4 KiB page of the tmpfs, so no new page can be written. */
const LEFT_BYTES = 2 * 1024;

let executor: ServeProcess;
let model: ScriptedModel;
const host = typedHost(() => executor);
const call = (method: string, params: object): Promise<ServeAnswer> => executor.request(method, params, 90_000);

/**
 * Every temporary file below the executor home: `*.tmp`, `.tmp-…`, `.tmpXXXX`, `….tmp-…` (Codex's own
 * scratch directory `codex/.tmp` is looked into, not counted itself). A started Codex works in its home
 * while this walks it (it stages a marketplace checkout under `codex/.tmp/.staging` and removes it), so
 * an entry that is gone by the time it is read was not left behind and is skipped.
 */
function temporaryFiles(dir = executorHome, relative = ''): string[] {
  const found: string[] = [];
  for (const name of unlessGone(() => readdirSync(dir), [])) {
    const path = join(dir, name);
    const child = relative === '' ? name : `${relative}/${name}`;
    if (/\.tmp$|\.tmp-|^\.tmp/.test(name) && child !== 'codex/.tmp') found.push(child);
    if (unlessGone(() => lstatSync(path).isDirectory(), false)) found.push(...temporaryFiles(path, child));
  }
  return found;
}

/** `read()`, or `gone` when what it reads was removed meanwhile (ENOENT); any other error is thrown. */
function unlessGone<A>(read: () => A, gone: A): A {
  try {
    return read();
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT') return gone;
    throw error;
  }
}

/** Fills the executor home's file system up to `leftBytes` free (appending to the filler file). */
async function fill(leftBytes: number): Promise<void> {
  const { bavail, bsize } = statfsSync(executorHome);
  const size = bavail * bsize - leftBytes;
  if (size <= 0) return;
  const file = await open(filler, 'a');
  try {
    const chunk = Buffer.alloc(64 * 1024, 1);
    for (let written = 0; written < size; ) {
      const length = Math.min(chunk.length, size - written);
      written += (await file.write(chunk, 0, length)).bytesWritten;
    }
  } finally {
    await file.close();
  }
}

/** The reply of a request: a success, or a typed error with a documented code and tag and no path in its message. */
function checked(method: string, answer: ServeAnswer): { readonly ok: boolean; readonly tag?: string } {
  if ('result' in answer) return { ok: true };
  const { code, message, data } = answer.error;
  expect(documented.has(code), `${method}: code ${code} is documented`).toBe(true);
  const decoded = HostErrorData.decode(data);
  expect(E.isRight(decoded), `${method}: data is HostErrorData`).toBe(true);
  expect(message, `${method}: no path in the message`).not.toContain(root);
  // Codex's and the OS's own text (`No space left on device (os error 28)`, `ENOSPC: …, open '<path>'`) never reaches a host.
  expect(message, `${method}: no foreign text in the message`).not.toMatch(/ENOSPC|no space left|os error|config\.toml|\.json/i);
  return { ok: false, tag: E.isRight(decoded) ? decoded.right.tag : '' };
}

/**
 * Codex's shell snapshot of a new thread is written in the background after `thread/start` answered; a
 * write that failed for space leaves `shell_snapshots/<thread>.tmp-<n>` behind, and Codex 0.171.0 does
 * not remove it later (seen on some runs, depending on when the snapshot is written). It is no answer's
 * doing and the executor does not write there while Codex runs, so it is counted and printed, not failed
 * on; the executor removes such files before the next Codex starts (the restart test below).
 */
const codexBackground = (path: string): boolean => /^codex\/shell_snapshots\/[^/]+\.tmp-[0-9]+$/.test(path);
const backgroundLeftovers = new Set<string>();

/** After every answer: nothing temporary left, and the executor still answers. */
async function settled(after: string): Promise<void> {
  const temporary = temporaryFiles();
  for (const path of temporary.filter(codexBackground)) backgroundLeftovers.add(path);
  expect(temporary.filter((path) => !codexBackground(path)), `temporary files after ${after}`).toEqual([]);
  expect(await host.ok('executor/info', {})).toMatchObject({ executor: 'wework-desktop-executor' });
  expect(E.isRight(await host.call('accounts/list', {})), `accounts/list after ${after}`).toBe(true);
}

const customNames = async (): Promise<string[]> => (await host.ok('marketplaces/list', {})).marketplaces.filter((entry) => entry.kind !== 'official').map((entry) => entry.name);
const installedPlugin = async (pluginId: string) => (await host.ok('plugins/installed', {})).plugins.find((plugin) => plugin.pluginId === pluginId);

beforeAll(async () => {
  if (skipReason !== null) return;
  await Promise.all([codexHome, join(root, 'home'), join(root, 'workspace')].map((dir) => mkdir(dir, { recursive: true })));
  for (const [name, dir] of [['alpha', markets.alpha], ['beta', markets.beta]] as const) {
    await writeLocalMarketplace(dir, {
      name,
      plugins: [
        { name: 'notes', skills: [{ name: 'jot', description: `Jots notes (${name})` }] },
        { name: 'tools', skills: [{ name: 'hammer', description: `Hammers (${name})` }] },
      ],
    });
  }
  model = await startScriptedModel({ script: Array.from({ length: 8 }, (_, i) => respond(say(`answer ${i + 1}`))) });
  const provider = scriptedModelCodexConfig({ baseUrl: model.url });
  await writeFile(join(codexHome, 'config.toml'), stringifyToml({ ...provider, features: { ...provider.features, plugins: true } }), { mode: 0o600 });
  executor = startServe(['--executor-home', executorHome, '--workspace', join(root, 'workspace')], { ...process.env, HOME: join(root, 'home'), CODEX_HOME: codexHome });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  await host.ok('marketplaces/add', { source: markets.alpha });
  await host.ok('plugins/install', { marketplace: 'alpha', plugin: 'tools' });
  await host.ok('settings/write', { instructions: 'before the disk filled' });
}, 180_000);

afterAll(async () => {
  if (skipReason !== null) return;
  await executor?.close();
  await model?.close();
  spawnSync('umount', ['-l', executorHome]);
  await rm(root, { recursive: true, force: true });
}, 60_000);

/** Each mutation and how its answer is checked against the disk. */
async function tryEveryMutation(expectSuccess: boolean): Promise<Record<string, { readonly ok: boolean; readonly tag?: string }>> {
  const outcomes: Record<string, { readonly ok: boolean; readonly tag?: string }> = {};
  const attempt = async (label: string, method: string, params: object, truth: (ok: boolean) => Promise<void>): Promise<void> => {
    // Each mutation meets a disk with a few KiB left, whatever the one before it wrote.
    if (!expectSuccess) await fill(LEFT_BYTES);
    const outcome = checked(label, await call(method, params));
    outcomes[label] = outcome;
    if (expectSuccess) expect(outcome, `${label} once the space was freed`).toEqual({ ok: true });
    await settled(label);
    await truth(outcome.ok);
  };

  await attempt('marketplaces/add', 'marketplaces/add', { source: markets.beta }, async (ok) => {
    expect((await customNames()).includes('beta'), 'marketplaces/list agrees with marketplaces/add').toBe(ok);
  });
  await attempt('marketplaces/reorder', 'marketplaces/reorder', { names: [...(await customNames())].reverse() }, async () => undefined);
  await attempt('plugins/install', 'plugins/install', { marketplace: 'alpha', plugin: 'notes' }, async (ok) => {
    expect((await installedPlugin('notes@alpha')) !== undefined, 'plugins/installed agrees with plugins/install').toBe(ok);
    // A failed install leaves no partial copy in Codex's plugin cache.
    if (!ok) expect(existsSync(join(codexHome, 'plugins', 'cache', 'alpha', 'notes')), 'no partial copy of a failed install').toBe(false);
  });
  await attempt('plugins/setEnabled', 'plugins/setEnabled', { pluginId: 'tools@alpha', enabled: false }, async (ok) => {
    expect((await installedPlugin('tools@alpha'))?.enabled, 'plugins/installed agrees with plugins/setEnabled').toBe(!ok);
  });
  const hammer = (await installedPlugin('tools@alpha'))?.skills.find((skill) => skill.name === 'tools:hammer');
  expect(hammer).toBeDefined();
  const hammerWas = hammer?.enabled ?? true;
  await attempt('skills/setEnabled', 'skills/setEnabled', { path: hammer?.path ?? '', enabled: !hammerWas }, async (ok) => {
    const now = (await installedPlugin('tools@alpha'))?.skills.find((skill) => skill.name === 'tools:hammer')?.enabled;
    expect(now, 'plugins/installed agrees with skills/setEnabled').toBe(ok ? !hammerWas : hammerWas);
  });
  // Both settings in one request: saved together or not at all.
  const styleBefore = (await host.ok('settings/read', {})).style;
  const styleAsked = styleBefore === 'friendly' ? 'pragmatic' : 'friendly';
  const instructionsAsked = `written ${expectSuccess ? 'after' : 'while'} the disk was full`;
  await attempt('settings/write', 'settings/write', { instructions: instructionsAsked, style: styleAsked }, async (ok) => {
    const read = await host.ok('settings/read', {});
    expect(read, 'settings/read agrees with settings/write').toEqual(ok ? { instructions: instructionsAsked, style: styleAsked } : { instructions: 'before the disk filled', style: styleBefore });
  });
  await attempt('integrations/apps/write', 'integrations/apps/write', { enabled: false }, async (ok) => {
    const read = await host.call('integrations/apps/read', {});
    if (E.isRight(read) && ok) expect(read.right.enabled).toBe(false);
  });
  if (!expectSuccess) await fill(LEFT_BYTES);
  // Codex's login callback server takes one port per machine: a login started here cancels one another
  // test runs at the same time (and the other way round), so it is started under the machine's login lock.
  await withMachineLock('codex-login', async () => {
    const added = await call('accounts/add', {});
    outcomes['accounts/add'] = checked('accounts/add', added);
    if ('result' in added) await host.ok('accounts/cancel', { loginId: (added.result as { loginId: string }).loginId });
    await settled('accounts/add');
  });
  await attempt('task/create', 'task/create', { taskId: `task-${expectSuccess ? 'after' : 'while'}`, modelSelection: { model: null }, executionRequest: { workspace: join(root, 'workspace') } }, async (ok) => {
    const tasks = (await host.ok('task/list', {})).tasks.map((task) => task.taskId);
    expect(tasks.includes(`task-${expectSuccess ? 'after' : 'while'}`)).toBe(ok);
  });
  // A turn writes Codex's rollout (its session file): answered completed or failed, or a typed error.
  await attempt('message/send', 'message/send', { taskId: `task-${expectSuccess ? 'after' : 'while'}`, markdown: 'Hello' }, async () => undefined);
  await attempt('plugins/uninstall', 'plugins/uninstall', { pluginId: 'tools@alpha' }, async (ok) => {
    expect((await installedPlugin('tools@alpha')) === undefined, 'plugins/installed agrees with plugins/uninstall').toBe(ok);
  });
  await attempt('marketplaces/remove', 'marketplaces/remove', { name: 'alpha' }, async (ok) => {
    expect((await customNames()).includes('alpha'), 'marketplaces/list agrees with marketplaces/remove').toBe(!ok);
  });
  return outcomes;
}

describe.skipIf(skipReason !== null)('the executor on a full disk', () => {
  it('answers every mutation with a typed error or a true success, leaves nothing temporary, and keeps answering', async () => {
    const outcomes = await tryEveryMutation(false);
    console.log(`diskFull.e2e: with the disk full: ${JSON.stringify(outcomes)}; Codex's background leftovers: ${backgroundLeftovers.size}`);
    // The disk was full indeed: Codex's writes of config.toml failed.
    expect(Object.values(outcomes).filter((outcome) => !outcome.ok).length).toBeGreaterThan(0);
  }, 600_000);

  it('once the space is freed, every mutation succeeds', async () => {
    await unlink(filler);
    // What the full disk left undone (a marketplace, a plugin) is set back so that each mutation is tried again.
    if (!(await customNames()).includes('alpha')) await host.ok('marketplaces/add', { source: markets.alpha });
    if ((await installedPlugin('tools@alpha')) === undefined) await host.ok('plugins/install', { marketplace: 'alpha', plugin: 'tools' });
    if ((await installedPlugin('tools@alpha'))?.enabled === false) await host.ok('plugins/setEnabled', { pluginId: 'tools@alpha', enabled: true });
    if ((await customNames()).includes('beta')) await host.ok('marketplaces/remove', { name: 'beta' });
    if ((await installedPlugin('notes@alpha')) !== undefined) await host.ok('plugins/uninstall', { pluginId: 'notes@alpha' });
    await tryEveryMutation(true);
  }, 600_000);

  it('after a restart nothing temporary is left at all: the shell snapshots Codex began are swept before it starts', async () => {
    await executor.close();
    executor = startServe(['--executor-home', executorHome, '--workspace', join(root, 'workspace')], { ...process.env, HOME: join(root, 'home'), CODEX_HOME: codexHome });
    expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
    expect(temporaryFiles(), 'temporary files after a restart').toEqual([]);
    expect((await host.ok('accounts/list', {})).accounts).toBeDefined();
    expect((await host.ok('plugins/installed', {})).plugins).toBeDefined();
  }, 180_000);
});
