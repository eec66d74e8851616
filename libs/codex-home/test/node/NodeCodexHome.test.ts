/**
 * The library against real files: real modes, real symbolic links, real renames, in temp dirs.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as T from 'fp-ts/lib/Task.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexHome, layoutOf, readAccountIndex, type CodexHome, type CodexHomeLayout } from '../../src/index.js';
import { nodeCodexHome } from '../../src/node/index.js';
import { nodeFileSystem } from '@wework/ports/node';
import { chatGptAuthJson, failingPort } from '../../src/testing.js';
import { CANARY, leftOf, rightOf } from '../support.js';

const onWindows = process.platform === 'win32';
const idle = { activeTurns: 0, pendingRequests: 0 };
const ada = chatGptAuthJson({ email: 'ada@example.com', accountId: 'acc-1', userId: 'user-1', planType: 'plus', accessToken: CANARY, refreshToken: CANARY });
const bob = chatGptAuthJson({ email: 'bob@example.com', accountId: 'acc-2', userId: 'user-2', accessToken: `${CANARY}-bob`, refreshToken: `${CANARY}-bob` });
const nativeConfig = 'model = "o3"\nmodel_provider = "azure"\n';

/** Every entry under `root`: kind, permission bits, and the hash of the content or link target. */
const fingerprint = async (root: string): Promise<ReadonlyArray<string>> => {
  const out: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const stats = await lstat(path);
    const mode = (stats.mode & 0o7777).toString(8);
    if (stats.isSymbolicLink()) out.push(`${path} link ${await readlink(path)}`);
    else if (stats.isDirectory()) {
      out.push(`${path} dir ${mode}`);
      for (const name of (await readdir(path)).sort()) await walk(join(path, name));
    } else out.push(`${path} file ${mode} ${createHash('sha256').update(await readFile(path)).digest('hex')}`);
  };
  await walk(root);
  return out;
};

const modeOf = async (path: string): Promise<number> => (await lstat(path)).mode & 0o777;

let root: string;
let layout: CodexHomeLayout;
let home: CodexHome;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codex-home-'));
  layout = layoutOf(nodeFileSystem().platform, join(root, 'executor', 'codex'), join(root, 'user', '.codex'), 'executorHome');
  await mkdir(layout.nativeHome, { recursive: true });
  await writeFile(layout.nativeAuthFile, ada, { mode: 0o600 });
  await writeFile(layout.nativeConfigFile, nativeConfig, { mode: 0o644 });
  home = codexHome(nodeFileSystem(), layout);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const askNative = () => T.of({ config: 'native', remoteApps: false } as const);

describe.skipIf(onWindows)('first start on real files', () => {
  it('creates the home 0700, links auth, imports the config 0600, and never writes the native home', async () => {
    const native = await fingerprint(layout.nativeHome);
    const prepared = await rightOf(home.prepareForStart(askNative));
    expect(prepared).toMatchObject({ home: 'Created', firstStart: { _tag: 'AskMigration' }, migration: { state: { configSource: 'native', remoteApps: false } } });
    expect(await modeOf(layout.home)).toBe(0o700);
    expect((await lstat(layout.authFile)).isSymbolicLink()).toBe(true);
    expect(await readlink(layout.authFile)).toBe(layout.nativeAuthFile);
    expect(await modeOf(layout.configFile)).toBe(0o600);
    expect(await modeOf(layout.stateFile)).toBe(0o600);
    const config = await readFile(layout.configFile, 'utf8');
    expect(config).toContain('model_provider = "azure"');
    expect(config).not.toMatch(/^model = /m);
    expect(config).toContain('[features]\napps = false\n');
    expect(await fingerprint(layout.nativeHome)).toEqual(native);
    expect((await readdir(layout.home)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    const again = await rightOf(home.prepareForStart(() => () => Promise.reject(new Error('asked twice'))));
    expect(again).toMatchObject({ home: 'Existing', firstStart: { _tag: 'Initialized' }, migration: null, config: { _tag: 'Unchanged' } });
    expect(await fingerprint(layout.nativeHome)).toEqual(native);
  });

  it('removes and recreates a stale auth link', async () => {
    await mkdir(layout.home, { recursive: true });
    await symlink(join(root, 'gone', 'auth.json'), layout.authFile);
    expect(await rightOf(home.linkNativeAuth())).toEqual({ _tag: 'Linked', replacedStaleLink: true });
    expect(await readlink(layout.authFile)).toBe(layout.nativeAuthFile);
    expect(await rightOf(home.linkNativeAuth())).toEqual({ _tag: 'AlreadyLinked', target: layout.nativeAuthFile });
  });

  it('normalizes config.toml keeping its mode, and writes through a symlinked config', async () => {
    await mkdir(layout.home, { recursive: true });
    await writeFile(layout.configFile, 'instructions = "Be brief."\n', { mode: 0o640 });
    await chmod(layout.configFile, 0o640);
    expect(await rightOf(home.prepareConfig())).toMatchObject({ _tag: 'Normalized' });
    expect(await modeOf(layout.configFile)).toBe(0o640);
    expect(await readFile(layout.configFile, 'utf8')).toContain('developer_instructions = "Be brief."');

    const target = join(root, 'dotfiles', 'codex.toml');
    await mkdir(join(root, 'dotfiles'));
    await writeFile(target, 'instructions = "x"\n', { mode: 0o600 });
    await rm(layout.configFile);
    await symlink(target, layout.configFile);
    expect(await rightOf(home.prepareConfig())).toMatchObject({ _tag: 'Normalized', path: target });
    expect((await lstat(layout.configFile)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toContain('developer_instructions = "x"');
    expect(await modeOf(target)).toBe(0o600);
  });

  it('leaves a malformed config.toml byte for byte', async () => {
    await mkdir(layout.home, { recursive: true });
    await writeFile(layout.configFile, `token = "${CANARY}\n`, { mode: 0o600 });
    const before = await fingerprint(layout.home);
    const error = await leftOf(home.prepareConfig());
    expect(error).toMatchObject({ _tag: 'MalformedConfig' });
    expect(JSON.stringify(error)).not.toContain(CANARY);
    expect(await fingerprint(layout.home)).toEqual(before);
  });
});

describe.skipIf(onWindows)('accounts on real files', () => {
  const addBob = async (): Promise<void> => {
    await rightOf(home.prepareForStart(askNative));
    const started = await rightOf(home.startAddAccount());
    await writeFile(layout.nativeAuthFile, bob); // what the login writes through the link
    expect(await rightOf(home.finishAddAccount(started))).toMatchObject({ _tag: 'Added', account: { email: 'bob@example.com' } });
  };

  it('keeps snapshots 0600 in a 0700 directory and lists both accounts', async () => {
    await addBob();
    expect(await modeOf(layout.profilesDirectory)).toBe(0o700);
    for (const name of await readdir(layout.profilesDirectory)) expect([name, await modeOf(join(layout.profilesDirectory, name))]).toEqual([name, 0o600]);
    const list = await rightOf(home.listAccounts());
    expect(list.accounts.map((a) => [a.email, a.active])).toEqual([
      ['ada@example.com', false],
      ['bob@example.com', true],
    ]);
  });

  it('switches through the link to the native auth.json atomically, keeping the link', async () => {
    await addBob();
    const outcome = await rightOf(home.switchAccount({ accountId: 'chatgpt:acc-1:user-1', activity: idle }));
    expect(outcome).toMatchObject({ _tag: 'Switched', wroteThroughLinkTo: layout.nativeAuthFile });
    expect((await lstat(layout.authFile)).isSymbolicLink()).toBe(true);
    expect(await readFile(layout.nativeAuthFile, 'utf8')).toBe(ada);
    expect(await modeOf(layout.nativeAuthFile)).toBe(0o600);
    expect((await readdir(layout.nativeHome)).sort()).toEqual(['auth.json', 'config.toml']);
  });

  it('leaves the active auth.json intact when the rename fails', async () => {
    await addBob();
    const crashing = codexHome(failingPort(nodeFileSystem(), { operation: 'rename', when: (path) => path === layout.nativeAuthFile }), layout);
    const error = await leftOf(crashing.switchAccount({ accountId: 'chatgpt:acc-1:user-1', activity: idle }));
    expect(error).toEqual({ _tag: 'FileSystemError', operation: 'rename', path: layout.nativeAuthFile, code: 'EIO' });
    expect(await readFile(layout.nativeAuthFile, 'utf8')).toBe(bob);
    expect((await readdir(layout.nativeHome)).sort()).toEqual(['auth.json', 'config.toml']);
  });

  it('never follows a symbolic link planted at a snapshot path', async () => {
    await addBob();
    const index = await rightOf(readAccountIndex(nodeFileSystem(), layout));
    const snapshot = join(layout.profilesDirectory, index.accounts[0]?.snapshot ?? '');
    const outside = join(root, 'outside.json');
    await writeFile(outside, 'outside', { mode: 0o644 });
    await rm(snapshot);
    await symlink(outside, snapshot);
    expect(await leftOf(home.switchAccount({ accountId: 'chatgpt:acc-1:user-1', activity: idle }))).toEqual({ _tag: 'SnapshotRefused', path: snapshot });
    await writeFile(layout.nativeAuthFile, ada);
    expect(await rightOf(home.saveActiveAccount())).toMatchObject({ snapshot: 'updated' });
    expect((await lstat(snapshot)).isFile()).toBe(true);
    expect(await readFile(outside, 'utf8')).toBe('outside');
    expect(await modeOf(outside)).toBe(0o644);
  });

  it('refuses a profiles directory that is a symbolic link', async () => {
    await rightOf(home.prepareForStart(askNative));
    const elsewhere = join(root, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, layout.profilesDirectory);
    expect(await leftOf(home.saveActiveAccount())).toEqual({ _tag: 'ProfilesDirectoryRefused', path: layout.profilesDirectory, reason: 'symlink' });
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('rebuilds a corrupt index from the snapshots', async () => {
    await addBob();
    await writeFile(layout.accountIndexFile, 'garbage');
    const list = await rightOf(home.listAccounts());
    expect(list.indexRepaired).toBe(true);
    expect(list.accounts.map((a) => a.email).sort()).toEqual(['ada@example.com', 'bob@example.com']);
  });

  it('never shows a token in a value or an error', async () => {
    await addBob();
    const results: unknown[] = [
      await home.listAccounts()(),
      await home.saveActiveAccount()(),
      await home.readAuthDigest()(),
      await home.switchAccount({ accountId: 'chatgpt:acc-1:user-1', activity: idle })(),
      await home.switchAccount({ accountId: 'chatgpt:acc-1:user-1', activity: { activeTurns: 1, pendingRequests: 0 } })(),
      await codexHome(failingPort(nodeFileSystem(), { operation: 'rename' }), layout).switchAccount({ accountId: 'chatgpt:acc-2:user-2', activity: idle })(),
      await nodeFileSystem().readFile(join(root, 'missing', CANARY.length.toString()), { followSymlink: false })(),
    ];
    for (const result of results) {
      expect(JSON.stringify(result)).not.toContain(CANARY);
      expect(String(result)).not.toContain(CANARY);
    }
  });
});

describe('the Node port', () => {
  it('creates temporary files with exactly the requested mode, and refuses links with O_NOFOLLOW', async () => {
    const fs = nodeFileSystem();
    const path = await rightOf(fs.createTempFile(root, 'x.json', new TextEncoder().encode('{}'), 0o640));
    expect(path.startsWith(join(root, '.x.json.'))).toBe(true);
    if (!onWindows) expect(await modeOf(path)).toBe(0o640);
    const link = join(root, 'link');
    await symlink(path, link);
    expect(E.isLeft(await fs.readFile(link, { followSymlink: false })())).toBe(true);
    expect(await leftOf(fs.readFile(link, { followSymlink: false }))).toMatchObject({ code: 'ELOOP' });
    expect(new TextDecoder().decode(await rightOf(fs.readFile(link, { followSymlink: true })))).toBe('{}');
    expect(await rightOf(fs.lstat(link))).toMatchObject({ kind: 'symlink' });
    expect(await rightOf(fs.stat(join(root, 'nothing')))).toBeNull();
  });

  it('nodeCodexHome lets WEGENT_CODEX_HOME win', () => {
    const custom = join(root, 'custom');
    const resolved = nodeCodexHome({ executorHome: join(root, 'executor'), userHome: join(root, 'user'), env: { WEGENT_CODEX_HOME: custom } });
    expect(E.isRight(resolved) && resolved.right.layout.home).toBe(custom);
    const fallback = nodeCodexHome({ executorHome: join(root, 'executor'), userHome: join(root, 'user'), env: {} });
    expect(E.isRight(fallback) && fallback.right.layout.home).toBe(join(root, 'executor', 'codex'));
  });
});
