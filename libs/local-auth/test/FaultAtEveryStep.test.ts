/**
 * Installing a managed tool is all or nothing under a failing disk, the way SQLite tests its writes: each
 * install is run once clean to count its steps (the download's write included), then once per step with
 * that step failing (`ENOSPC`, `EIO`, `EDQUOT`), over the in-memory port and the real Node port.
 * Afterwards the executor home is the old tree or the new one byte for byte, holds no temporary file, a
 * failure means nothing happened, and the next install succeeds and gives the new tree.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as E from 'fp-ts/lib/Either.js';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFileSystem } from '@wework/ports/node';
import { DISK_FAULT_CODES, failingAt, MemoryFileSystem, rightOf, snapshotTree, temporaryPathsIn, type TreeSnapshot } from '@wework/ports/testing';
import type { FileSystemPort } from '@wework/ports';
import type { ManagedTool, ToolArtifact } from '../src/LocalAuthManifest.js';
import { writeTar } from '../src/internal/Tar.js';
import { managedToolInstaller, type Downloader } from '../src/node/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'local-auth-faults-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const script = new TextEncoder().encode('#!/bin/sh\necho "glab version 1.46.0"\n');
const archives: Readonly<Record<string, Uint8Array>> = {
  'glab.tar.gz': gzipSync(writeTar([{ path: 'bin/glab', content: script }])),
  'glab.zip': zipSync({ 'glab/bin/glab.exe': script, 'glab/README.md': new TextEncoder().encode('readme') }),
  'glab-raw': script,
};
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const RELEASES = 'https://gitlab.com/gitlab-org/cli/-/releases/v1.46.0/downloads';
const platform = { os: 'linux', arch: 'x64' } as const;
const tool = (file: string, rest: Partial<ToolArtifact>): ManagedTool => ({
  source: 'managed',
  name: 'glab',
  version: '1.46.0',
  artifacts: [{ os: 'linux', arch: 'x64', url: `${RELEASES}/${file}`, sha256: sha256(archives[file] ?? new Uint8Array()), format: 'tar.gz', ...rest }],
});

/** A downloader that writes the artifact through `fs` (so its write is one of the install's steps). */
const downloaderOn = (fs: FileSystemPort): Downloader => ({
  download: async (url, destination) => {
    const bytes = archives[url.pathname.split('/').pop() ?? ''];
    if (bytes === undefined) return E.left('HTTP 404');
    const written = await fs.writeFiles([{ path: destination, bytes, mode: 0o600 }])();
    return E.isLeft(written) ? E.left('write failed') : E.right(undefined);
  },
});

interface Place {
  readonly fs: FileSystemPort;
  readonly home: string;
}

interface Scenario {
  readonly name: string;
  readonly tool: ManagedTool;
  /** Builds the executor home before the install. */
  readonly setup: (place: Place) => Promise<void>;
}

const install = (fs: FileSystemPort, home: string, target: ManagedTool) => managedToolInstaller({ executorHome: home, downloader: downloaderOn(fs), platform, fs }).ensure(target);

const scenarios: ReadonlyArray<Scenario> = [
  { name: 'a tar.gz into a home without tools', tool: tool('glab.tar.gz', { path: 'bin/glab' }), setup: async () => undefined },
  {
    name: 'a zip beside another installed tool',
    tool: tool('glab.zip', { format: 'zip', path: 'glab/bin/glab.exe' }),
    setup: async ({ fs, home }) => {
      await rightOf(fs.makeDirectory(join(home, 'tools', 'dws', '2.0.0'), 0o755));
      await rightOf(fs.writeFiles([{ path: join(home, 'tools', 'dws', '2.0.0', 'dws'), bytes: script, mode: 0o755 }]));
    },
  },
  { name: 'a raw binary', tool: tool('glab-raw', { format: 'binary' }), setup: async () => undefined },
  {
    name: 'a damaged installation replaced',
    tool: tool('glab.tar.gz', { path: 'bin/glab' }),
    setup: async ({ fs, home }) => {
      const installed = await install(fs, home, tool('glab.tar.gz', { path: 'bin/glab' }));
      if (E.isLeft(installed)) throw new Error(installed.left._tag);
      await rightOf(fs.removeFile(installed.right));
      await rightOf(fs.writeFiles([{ path: installed.right, bytes: new TextEncoder().encode('tampered'), mode: 0o755 }]));
    },
  },
];

let places = 0;
const emptyPlace = async (onDisk: boolean): Promise<Place> => {
  const fs: FileSystemPort = onDisk ? nodeFileSystem({ durability: 'none' }) : new MemoryFileSystem();
  const home = onDisk ? join(scratch, `home-${places++}`) : '/r/executor';
  await rightOf(fs.makeDirectory(home, 0o700));
  return { fs, home };
};
const treeOf = ({ fs, home }: Place): Promise<TreeSnapshot> => rightOf(snapshotTree(fs, home));

describe.runIf(process.platform !== 'win32').each([
  { port: 'memory', onDisk: false },
  { port: 'node', onDisk: true },
])('installing a managed tool, each step failing, on the $port port', ({ onDisk }) => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s: the old tree or the new one, no temporary file, and the retry succeeds', async (_name, s) => {
    const fresh = async (): Promise<Place> => {
      const place = await emptyPlace(onDisk);
      await s.setup(place);
      return place;
    };
    const clean = await fresh();
    const oldTree = await treeOf(clean);
    const counted = failingAt(clean.fs, -1, 'EIO');
    const done = await install(counted.fs, clean.home, s.tool);
    expect(E.isRight(done)).toBe(true);
    const newTree = await treeOf(clean);
    expect(newTree).not.toEqual(oldTree);
    const steps = counted.mutations().length;
    for (let step = 0; step < steps; step++) {
      for (const code of DISK_FAULT_CODES) {
        const place = await fresh();
        const faulty = failingAt(place.fs, step, code);
        const answer = await install(faulty.fs, place.home, s.tool);
        expect(faulty.fired()).toBe(true);
        const tree = await treeOf(place);
        expect(temporaryPathsIn(tree), `step ${step} ${code}`).toEqual([]);
        if (E.isLeft(answer)) {
          expect(answer.left._tag, `step ${step} ${code}`).toMatch(/^(InstallFailed|DownloadFailed)$/);
          expect(tree, `step ${step} (${code}) failed, so nothing may have happened`).toEqual(oldTree);
          expect(E.isRight(await install(place.fs, place.home, s.tool)), `retry after step ${step} ${code}`).toBe(true);
        }
        expect(await treeOf(place), `step ${step} ${code}`).toEqual(newTree);
      }
    }
  });
});
