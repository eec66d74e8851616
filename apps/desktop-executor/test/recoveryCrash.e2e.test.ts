/**
 * Crash safety of the start-up recovery of the plugin homes, with the real executor process: a moved
 * executor home (two installed plugins whose registrations name the old place) is recovered by
 * `serve.js`, which is SIGKILLed while it holds before its n-th file mutation
 * (`WEWORK_TEST_RECOVERY_PAUSE_AT`), for n spread over the whole recovery. After the restart's journal
 * recovery every plugin is wholly in its old or its new state (digest trees of its caches and retained
 * package, its registry, enablement and manifest entries), never a mix; the next full start-up recovery
 * then reaches exactly the state of an uninterrupted one.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModelCodexConfig } from '@wework/scripted-model';
import { stringify as stringifyToml } from 'smol-toml';
import { commitChange, recoverAll, recoverDirectories, type Homes } from '@wework/sync-transaction';
import { createNodePorts, directoryPackageSource } from '@wework/sync-transaction/node';
import { instrumentFileSystem } from '@wework/ports/testing';
import { pluginHomesOf, recoverPluginHomes } from '../src/plugins/PluginDirectoryRecovery.js';
import { spawnServe } from './support/serveProcess.js';
import { treeLines } from './support/treeLines.js';

const PLUGINS = ['alpha', 'beta'] as const;
const encoder = new TextEncoder();
const ports = createNodePorts({ durability: 'none' });
let root = '';
const template = (): string => join(root, 'template');
const place = (): string => join(root, 'run');
const homesAt = (dir: string): Homes => pluginHomesOf(join(dir, 'executor'), join(dir, 'executor', 'codex'));

const packageOf = (name: string) => [
  { kind: 'directory', path: '.codex-plugin', mode: 0o755 },
  { kind: 'file', path: '.codex-plugin/plugin.json', mode: 0o644, bytes: encoder.encode(JSON.stringify({ name, version: '1.0.0', skills: './skills/' })) },
  ...Array.from({ length: 6 }, (_, i) => ({ kind: 'file', path: `skills/s${i}/SKILL.md`, mode: 0o644, bytes: encoder.encode(`---\nname: s${i}\ndescription: ${name} ${i}\n---\n`) })),
];

const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');
const treeOf = (path: string): string => (existsSync(path) ? digestOf(treeLines(path).join('\n')) : 'absent');
const jsonAt = (path: string): Record<string, unknown> => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {});
const without = (value: unknown, ...keys: string[]): unknown =>
  Array.isArray(value) ? value.map((v) => without(v, ...keys)) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)).map(([k, v]) => [k, without(v, ...keys)])) : value;

/** One plugin's whole state at `dir`: its trees, registry, marketplace, enablement and manifest entries (times aside). */
function pluginState(dir: string, name: string): string {
  const homes = homesAt(dir);
  const key = `${name}@wegent`;
  const config = existsSync(join(homes.codexHome, 'config.toml')) ? readFileSync(join(homes.codexHome, 'config.toml'), 'utf8') : '';
  const table = new RegExp(`\\[plugins\\."${name}@wegent"\\]\\n[^\\[]*`).exec(config)?.[0] ?? null;
  const marketplace = jsonAt(join(homes.codexHome, 'plugins/marketplaces/wegent/.agents/plugins/marketplace.json'))['plugins'];
  return JSON.stringify({
    codex: treeOf(join(homes.codexHome, 'plugins/cache/wegent', name, '1.0.0')),
    claude: treeOf(join(homes.claudeHome as string, 'plugins/cache/wegent', name, '1.0.0')),
    retained: treeOf(join(homes.packageStore as string, 'wegent', name, '1.0.0')),
    installed: without((jsonAt(join(homes.claudeHome as string, 'plugins/installed_plugins.json'))['plugins'] as Record<string, unknown> | undefined)?.[key] ?? null, 'lastUpdated', 'installedAt'),
    marketplace: Array.isArray(marketplace) ? marketplace.filter((entry) => (entry as { name?: unknown }).name === name) : null,
    enablement: table,
    manifest: without((jsonAt(join(homes.stateDirectory, 'manifest.json'))['plugins'] as Record<string, unknown> | undefined)?.[key] ?? null, 'updatedAt'),
  });
}

const states = (dir: string): Record<string, string> => Object.fromEntries(PLUGINS.map((name) => [name, pluginState(dir, name)]));

/** A fresh copy of the moved, not yet recovered, executor directory at the run place. */
function freshRun(): void {
  rmSync(place(), { recursive: true, force: true });
  cpSync(template(), place(), { recursive: true, verbatimSymlinks: true });
}

let oldStates: Record<string, string> = {};
let newStates: Record<string, string> = {};
let mutations = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'executor-recovery-crash-'));
  const installedAt = join(root, 'installed-here');
  const homes = homesAt(installedAt);
  mkdirSync(homes.codexHome, { recursive: true });
  mkdirSync(join(installedAt, 'home'), { recursive: true });
  mkdirSync(join(installedAt, 'workspace'), { recursive: true });
  writeFileSync(join(homes.codexHome, 'config.toml'), stringifyToml(scriptedModelCodexConfig({ baseUrl: 'http://127.0.0.1:9/v1' })), { mode: 0o600 });
  for (const name of PLUGINS)
    expect(await commitChange(ports, homes, { _tag: 'Install', plugin: { name, marketplace: 'wegent' }, version: '1.0.0', source: { extract: () => TE.right(packageOf(name)) }, at: '2025-01-01T00:00:00.000Z' })()).toMatchObject({ right: { outcome: 'Committed' } });
  // The executor directory is moved: its registrations name the old place.
  renameSync(installedAt, template());

  freshRun();
  oldStates = states(place());
  // An uninterrupted recovery: the new state, and how many mutations it makes.
  const counted = instrumentFileSystem(ports.fs, () => {
    mutations++;
    return Promise.resolve(true);
  });
  const run = homesAt(place());
  expect(E.isRight(await recoverAll(counted, ports.host, run)())).toBe(true);
  expect(await recoverDirectories({ fs: counted, host: ports.host, openPackage: (dir) => directoryPackageSource(dir) }, run, { at: '2025-02-01T00:00:00.000Z' })()).toMatchObject({
    right: { plugins: [{ outcome: { _tag: 'Rebuilt', reason: 'HomeMoved' } }, { outcome: { _tag: 'Rebuilt', reason: 'HomeMoved' } }] },
  });
  newStates = states(place());
  for (const name of PLUGINS) expect(newStates[name]).not.toBe(oldStates[name]);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function killAt(index: number): Promise<void> {
  const dirs = { executorHome: join(place(), 'executor'), workspace: join(place(), 'workspace') };
  const serve = spawnServe(['--stdio', '--executor-home', dirs.executorHome, '--workspace', dirs.workspace], { ...process.env, HOME: join(place(), 'home'), WEWORK_TEST_RECOVERY_PAUSE_AT: String(index) });
  try {
    const deadline = Date.now() + 30_000;
    while (!serve.stderr().includes('plugin recovery paused')) {
      if (Date.now() > deadline || serve.child.exitCode !== null) throw new Error(`the executor did not pause at mutation ${index}:\n${serve.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    serve.child.kill('SIGKILL');
    await serve.exited;
  } finally {
    await serve.stop();
  }
}

describe('SIGKILL during start-up recovery of the plugin homes', () => {
  it('at mutations spread over the whole recovery: each plugin old or new after journal recovery, and the next start completes it', async () => {
    expect(mutations).toBeGreaterThan(10);
    const step = Math.max(1, Math.floor(mutations / 7));
    const points = [...new Set([0, ...Array.from({ length: 8 }, (_, i) => Math.min(mutations - 1, i * step + 1)), mutations - 1])];
    const seen = new Set<string>();
    for (const index of points) {
      freshRun();
      await killAt(index);
      // The restart's first step: journals finished or undone.
      expect(E.isRight(await recoverAll(ports.fs, ports.host, homesAt(place()))())).toBe(true);
      const after = states(place());
      for (const name of PLUGINS) {
        const which = after[name] === oldStates[name] ? 'old' : after[name] === newStates[name] ? 'new' : 'mixed';
        expect(which, `plugin ${name} after a kill before mutation ${index}`).not.toBe('mixed');
        seen.add(`${name}:${which}`);
      }
      // The next start-up recovery completes it: exactly the state of an uninterrupted recovery.
      await recoverPluginHomes(homesAt(place()), {}, () => undefined);
      expect(states(place())).toEqual(newStates);
    }
    // Kills landed before, between and after the plugins' commits.
    expect(seen).toEqual(new Set(['alpha:old', 'alpha:new', 'beta:old', 'beta:new']));
  }, 300_000);
});
