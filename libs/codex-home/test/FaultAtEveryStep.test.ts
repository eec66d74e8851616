/**
 * Every mutation of the Wework Codex home is all or nothing under a failing disk, the way SQLite tests its
 * writes: each mutation is run once clean to count its steps, then once per step with that step failing
 * (`ENOSPC`, `EIO`, `EDQUOT`), over the in-memory port and the real Node port. Afterwards the whole tree —
 * the executor home with the Wework Codex home, and the native `~/.codex` — is the old one or the new one
 * byte for byte, holds no temporary file, a failure means nothing happened, and the next run succeeds
 * and gives the new tree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { afterAll, describe, expect, it } from 'vitest';
import { joinPath, parentOf, PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE, writeFileAtomic, type FileSystemPort, type Platform } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import { DISK_FAULT_CODES, failingAt, snapshotTree, temporaryPathsIn, type TreeSnapshot } from '@wework/ports/testing';
import {
  applyMigration,
  encodeAccountIndex,
  ensureCodexHome,
  finishAddAccount,
  layoutOf,
  linkNativeAuth,
  listAccounts,
  prepareConfig,
  prepareHomeForStart,
  saveActiveAccount,
  startAddAccount,
  switchAccount,
  type AddAccountStarted,
  type CodexHomeLayout,
} from '../src/index.js';
import { chatGptAuthJson } from '../src/testing.js';
import { MemoryFileSystem } from '@wework/ports/testing';
import { CANARY, rightOf } from './support.js';

const scratch = mkdtempSync(join(tmpdir(), 'codex-home-faults-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const idle = { activeTurns: 0, pendingRequests: 0 };
const login = (name: string, n: number, secret = CANARY): string =>
  chatGptAuthJson({ email: `${name}@example.com`, accountId: `acc-${n}`, userId: `user-${n}`, planType: 'plus', accessToken: `${secret}-${name}`, refreshToken: `${secret}-${name}` });
const ada = login('ada', 1);
const bob = login('bob', 2);
const carol = login('carol', 3);
const adaRefreshed = login('ada', 1, `${CANARY}-refreshed`);
const ADA = 'chatgpt:acc-1:user-1';
const BOB = 'chatgpt:acc-2:user-2';

/** One place a scenario runs: a port and the root holding the executor home and the native home. */
interface Place {
  readonly fs: FileSystemPort;
  readonly root: string;
  readonly layout: CodexHomeLayout;
}

let places = 0;
/** An empty root holding the executor home (absent) and the native home (absent), in memory or on disk. */
const emptyPlace = async (onDisk: boolean, platform: Platform): Promise<Place> => {
  const fs: FileSystemPort = onDisk ? nodeFileSystem({ durability: 'none' }) : new MemoryFileSystem(platform);
  const root = onDisk ? join(scratch, `place-${places++}`) : platform === 'unix' ? '/r' : 'C:\\r';
  await rightOf(fs.makeDirectory(root, PRIVATE_DIRECTORY_MODE));
  return { fs, root, layout: layoutOf(fs.platform, joinPath(fs.platform, root, 'executor', 'codex'), joinPath(fs.platform, root, 'user', '.codex')) };
};

/** Copies the tree under `from`'s root to `to`'s root through the ports: bytes, bits and links (their targets moved to the new root). */
const copyTree = async (from: Place, to: Place): Promise<void> => {
  const visit = async (source: string, destination: string): Promise<void> => {
    const stat = await rightOf(from.fs.lstat(source));
    if (stat === null) return;
    if (stat.kind === 'symlink') {
      const target = await rightOf(from.fs.readLink(source));
      await rightOf(to.fs.symlink(target.split(from.root).join(to.root), destination));
    } else if (stat.kind === 'file') {
      const bytes = await rightOf(from.fs.readFile(source, { followSymlink: false }));
      await rightOf(to.fs.writeFiles([{ path: destination, bytes, mode: stat.mode }]));
    } else if (stat.kind === 'directory') {
      if (source !== from.root) await rightOf(to.fs.createDirectory(destination, stat.mode));
      for (const name of await rightOf(from.fs.listDirectory(source))) {
        await visit(joinPath(from.fs.platform, source, name), joinPath(to.fs.platform, destination, name));
      }
    }
  };
  await visit(from.root, to.root);
};

/** Writes a file (and its missing parents) through the port. */
const put = async (fs: FileSystemPort, path: string, text: string, mode = PRIVATE_FILE_MODE): Promise<void> => {
  await rightOf(fs.makeDirectory(parentOf(fs.platform, path), PRIVATE_DIRECTORY_MODE));
  await rightOf(writeFileAtomic(fs, path, new TextEncoder().encode(text), mode));
};
const link = async (fs: FileSystemPort, target: string, path: string): Promise<void> => {
  await rightOf(fs.makeDirectory(parentOf(fs.platform, path), PRIVATE_DIRECTORY_MODE));
  await rightOf(fs.symlink(target, path));
};

/** The tree under the root with the root taken out of link targets, so trees of different roots compare. */
const treeOf = async ({ fs, root }: Place): Promise<TreeSnapshot> =>
  (await rightOf(snapshotTree(fs, root))).map(([path, entry]) => [path, entry.kind === 'symlink' ? { kind: 'symlink', target: entry.target.split(root).join('<root>') } : entry] as const);

/** A mutation from a state: `setup` builds the state before (and may return what the mutation needs). */
interface Scenario<C = unknown> {
  readonly name: string;
  /** The path flavours it runs with; Unix only unless it differs on Windows (the auth link is a copy there). */
  readonly platforms?: ReadonlyArray<Platform>;
  readonly setup: (place: Place) => Promise<C>;
  readonly run: (fs: FileSystemPort, layout: CodexHomeLayout, context: C) => TE.TaskEither<unknown, unknown>;
  /** The mutation answers success even when a write it could skip failed (the list's index repair). */
  readonly toleratesFailedWrite?: boolean;
}
const scenario = <C>(s: Scenario<C>): Scenario => s as Scenario;

const home = async ({ fs, layout }: Place): Promise<void> => {
  await rightOf(fs.makeDirectory(layout.home, PRIVATE_DIRECTORY_MODE));
};
/** A home with `saved` accounts saved (through the library) and `active` as auth.json. */
const accounts = async (place: Place, saved: ReadonlyArray<string>, active: string | null): Promise<void> => {
  await home(place);
  for (const auth of saved) {
    await put(place.fs, place.layout.authFile, auth);
    await rightOf(saveActiveAccount(place.fs, place.layout));
  }
  if (active === null) await rightOf(place.fs.removeFile(place.layout.authFile));
  else await put(place.fs, place.layout.authFile, active);
};

const scenarios: ReadonlyArray<Scenario> = [
  scenario({ name: 'ensureCodexHome creates the home', setup: async () => undefined, run: (fs, layout) => ensureCodexHome(fs, layout) }),
  scenario({
    name: 'linkNativeAuth links the native auth.json',
    platforms: ['unix'],
    setup: async (place) => {
      await home(place);
      await put(place.fs, place.layout.nativeAuthFile, ada);
    },
    run: (fs, layout) => linkNativeAuth(fs, layout),
  }),
  scenario({
    name: 'linkNativeAuth replaces a stale link',
    platforms: ['unix', 'windows'],
    setup: async (place) => {
      await home(place);
      await put(place.fs, place.layout.nativeAuthFile, ada);
      await link(place.fs, joinPath(place.fs.platform, place.root, 'gone', 'auth.json'), place.layout.authFile);
    },
    run: (fs, layout) => linkNativeAuth(fs, layout),
  }),
  scenario({
    name: 'linkNativeAuth removes a stale link with nothing to link to',
    platforms: ['unix', 'windows'],
    setup: async (place) => {
      await home(place);
      await link(place.fs, joinPath(place.fs.platform, place.root, 'gone', 'auth.json'), place.layout.authFile);
    },
    run: (fs, layout) => linkNativeAuth(fs, layout),
  }),
  scenario({
    name: 'linkNativeAuth copies the native auth.json on Windows',
    platforms: ['windows'],
    setup: async (place) => {
      await home(place);
      await put(place.fs, place.layout.nativeAuthFile, ada);
    },
    run: (fs, layout) => linkNativeAuth(fs, layout),
  }),
  scenario({
    name: 'prepareConfig creates a missing config.toml',
    setup: home,
    run: (fs, layout) => prepareConfig(fs, layout),
  }),
  scenario({
    name: 'prepareConfig normalizes a legacy config.toml',
    setup: async (place) => {
      await home(place);
      await put(place.fs, place.layout.configFile, '# keep me\ninstructions = "Be brief."\n', 0o640);
    },
    run: (fs, layout) => prepareConfig(fs, layout),
  }),
  scenario({
    name: 'prepareConfig normalizes through a link, keeping the link',
    platforms: ['unix'],
    setup: async (place) => {
      await home(place);
      const target = joinPath(place.fs.platform, place.root, 'dotfiles', 'codex.toml');
      await put(place.fs, target, 'instructions = "x"\n', 0o644);
      await link(place.fs, target, place.layout.configFile);
    },
    run: (fs, layout) => prepareConfig(fs, layout),
  }),
  scenario({
    name: 'applyMigration creates a fresh home reusing the auth link',
    platforms: ['unix', 'windows'],
    setup: async (place) => {
      await put(place.fs, place.layout.nativeAuthFile, ada);
    },
    run: (fs, layout) => applyMigration(fs, layout, { config: 'fresh', remoteApps: false }),
  }),
  scenario({
    name: 'applyMigration imports the native config into an existing home with a stale link',
    setup: async (place) => {
      await put(place.fs, place.layout.nativeAuthFile, ada);
      await put(place.fs, place.layout.nativeConfigFile, 'model = "o3"\ninstructions = "Be brief."\n');
      await link(place.fs, joinPath(place.fs.platform, place.root, 'gone', 'auth.json'), place.layout.authFile);
    },
    run: (fs, layout) => applyMigration(fs, layout, { config: 'native', remoteApps: true }),
  }),
  scenario({
    name: 'prepareHomeForStart on a first start: home, migration, auth link, config',
    setup: async (place) => {
      await put(place.fs, place.layout.nativeAuthFile, ada);
      await put(place.fs, place.layout.nativeConfigFile, 'model = "o3"\ninstructions = "Be brief."\n');
    },
    run: (fs, layout) => prepareHomeForStart(fs, layout, () => async () => ({ config: 'native', remoteApps: false })),
  }),
  scenario({
    name: 'saveActiveAccount saves the first account (no profiles directory yet)',
    platforms: ['unix', 'windows'],
    setup: (place) => accounts(place, [], ada),
    run: (fs, layout) => saveActiveAccount(fs, layout),
  }),
  scenario({
    name: 'saveActiveAccount replaces the snapshot of an account whose tokens were refreshed',
    setup: (place) => accounts(place, [ada, bob], adaRefreshed),
    run: (fs, layout) => saveActiveAccount(fs, layout),
  }),
  scenario({
    name: 'Add account: startAddAccount saves the current account',
    setup: (place) => accounts(place, [bob], ada),
    run: (fs, layout) => startAddAccount(fs, layout),
  }),
  scenario<AddAccountStarted>({
    name: 'Add account: finishAddAccount saves the new account after the login',
    setup: async (place) => {
      await accounts(place, [], ada);
      const started = await rightOf(startAddAccount(place.fs, place.layout));
      await put(place.fs, place.layout.authFile, bob); // what account/login/start writes
      return started;
    },
    run: (fs, layout, started) => finishAddAccount(fs, layout, started),
  }),
  scenario({
    name: 'switchAccount switches between saved accounts',
    platforms: ['unix', 'windows'],
    setup: (place) => accounts(place, [ada, bob], bob),
    run: (fs, layout) => switchAccount(fs, layout, { accountId: ADA, activity: idle }),
  }),
  scenario({
    name: 'switchAccount saves an unsaved current account first',
    setup: (place) => accounts(place, [ada, bob], carol),
    run: (fs, layout) => switchAccount(fs, layout, { accountId: BOB, activity: idle }),
  }),
  scenario({
    name: 'switchAccount refreshes the current snapshot first',
    setup: (place) => accounts(place, [ada, bob], adaRefreshed),
    run: (fs, layout) => switchAccount(fs, layout, { accountId: BOB, activity: idle }),
  }),
  scenario({
    name: 'switchAccount keeps an unreadable current auth.json as a backup',
    setup: (place) => accounts(place, [ada, bob], 'not json'),
    run: (fs, layout) => switchAccount(fs, layout, { accountId: ADA, activity: idle }),
  }),
  scenario({
    name: 'switchAccount writes through a link to the native home',
    platforms: ['unix'],
    setup: async (place) => {
      await accounts(place, [ada, bob], null);
      await put(place.fs, place.layout.nativeAuthFile, bob);
      await link(place.fs, place.layout.nativeAuthFile, place.layout.authFile);
    },
    run: (fs, layout) => switchAccount(fs, layout, { accountId: ADA, activity: idle }),
  }),
  scenario({
    name: 'switchAccount repairs an index missing a snapshot first',
    setup: async (place) => {
      await accounts(place, [ada, bob], bob);
      await put(place.fs, place.layout.accountIndexFile, new TextDecoder().decode(encodeAccountIndex({ version: 1, accounts: [] })));
    },
    run: (fs, layout) => switchAccount(fs, layout, { accountId: ADA, activity: idle }),
  }),
  scenario({
    name: 'listAccounts adopts a snapshot without an index entry (an interrupted add)',
    setup: async (place) => {
      await accounts(place, [ada, bob], bob);
      await put(place.fs, place.layout.accountIndexFile, new TextDecoder().decode(encodeAccountIndex({ version: 1, accounts: [] })));
    },
    run: (fs, layout) => listAccounts(fs, layout),
    toleratesFailedWrite: true,
  }),
];

describe.each([
  { port: 'memory', onDisk: false, platform: 'unix' as Platform },
  { port: 'memory (Windows paths)', onDisk: false, platform: 'windows' as Platform },
  { port: 'node', onDisk: true, platform: 'unix' as Platform },
])('every mutation of the Codex home, each step failing, on the $port port', ({ onDisk, platform }) => {
  const applicable = scenarios.filter((s) => (s.platforms ?? ['unix']).includes(platform) && !(onDisk && process.platform === 'win32'));
  it.each(applicable.map((s) => [s.name, s] as const))('%s: the old tree or the new one, no temporary file, and the retry succeeds', async (_name, s) => {
    // The state before is built once through the library, then copied byte for byte for every run.
    const template = await emptyPlace(onDisk, platform);
    await rightOf(template.fs.makeDirectory(joinPath(template.fs.platform, template.root, 'executor'), PRIVATE_DIRECTORY_MODE));
    const context = await s.setup(template);
    const oldTree = await treeOf(template);
    const fresh = async (): Promise<Place> => {
      const place = await emptyPlace(onDisk, platform);
      await copyTree(template, place);
      return place;
    };
    const clean = await fresh();
    expect(await treeOf(clean)).toEqual(oldTree);
    const counted = failingAt(clean.fs, -1, 'EIO');
    const done = await s.run(counted.fs, clean.layout, context)();
    expect(E.isRight(done)).toBe(true);
    const newTree = await treeOf(clean);
    expect(newTree).not.toEqual(oldTree);
    const steps = counted.mutations().length;
    expect(steps).toBeGreaterThan(0);
    for (let step = 0; step < steps; step++) {
      for (const code of DISK_FAULT_CODES) {
        const place = await fresh();
        const faulty = failingAt(place.fs, step, code);
        const answer = await s.run(faulty.fs, place.layout, context)();
        expect(faulty.fired()).toBe(true);
        expect(JSON.stringify(answer)).not.toContain(CANARY);
        const tree = await treeOf(place);
        expect(temporaryPathsIn(tree), `step ${step} ${code}`).toEqual([]);
        if (E.isLeft(answer)) {
          expect(answer.left, `step ${step} ${code}`).toMatchObject({ code });
          expect(tree, `step ${step} (${code}) failed, so nothing may have happened`).toEqual(oldTree);
        } else if (s.toleratesFailedWrite === true) {
          expect([oldTree, newTree], `step ${step} ${code}`).toContainEqual(tree);
        } else {
          expect(tree, `step ${step} (${code}) answered success, so it must have happened`).toEqual(newTree);
        }
        if (E.isLeft(answer) || s.toleratesFailedWrite === true) {
          expect(E.isRight(await s.run(place.fs, place.layout, context)()), `retry after step ${step} ${code}`).toBe(true);
          expect(await treeOf(place), `retry after step ${step} ${code}`).toEqual(newTree);
        }
      }
    }
  });
});
