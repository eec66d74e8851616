import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { ManagedTool } from '../src/LocalAuthManifest.js';
import { checkReleaseUrl, installLocation, planManagedInstall, selectArtifact } from '../src/ManagedTool.js';
import { readTarEntry, writeTar } from '../src/internal/Tar.js';

const sha = (char: string) => char.repeat(64);
const base = 'https://gitlab.com/gitlab-org/cli/-/releases/v1.46.0/downloads';
const glab: ManagedTool = {
  source: 'managed',
  name: 'glab',
  version: '1.46.0',
  artifacts: [
    { os: 'darwin', arch: 'arm64', url: `${base}/glab_1.46.0_darwin_arm64.tar.gz`, sha256: sha('a'), format: 'tar.gz', path: 'bin/glab' },
    { os: 'linux', arch: 'x64', url: `${base}/glab_1.46.0_linux_amd64.tar.gz`, sha256: sha('B'), format: 'tar.gz', path: 'bin/glab' },
    { os: 'windows', arch: 'x64', url: `${base}/glab.exe`, sha256: sha('c') },
  ],
};

describe('managed tools', () => {
  it('selects the artifact by OS and CPU', () => {
    expect(selectArtifact(glab, { os: 'linux', arch: 'x64' })).toEqual(E.right(glab.artifacts[1]));
    expect(selectArtifact(glab, { os: 'linux', arch: 'arm64' })).toMatchObject(E.left({ _tag: 'NoArtifactForPlatform', message: 'glab 1.46.0 has no artifact for linux/arm64.' }));
  });

  it.each([
    [`${base}/glab.tar.gz`, true],
    ['http://gitlab.com/gitlab-org/cli/-/releases/v1/downloads/x', false],
    ['https://gitlab.com.evil.example/gitlab-org/cli/-/releases/x', false],
    ['https://gitlab.com@evil.example/gitlab-org/cli/-/releases/x', false],
    ['https://user:pw@gitlab.com/gitlab-org/cli/-/releases/x', false],
    ['https://gitlab.com/gitlab-org/cli/-/releases/../../../evil/cli/-/raw/x', false],
    ['https://gitlab.com/gitlab-org/cli/-/releases/%2e%2e/%2e%2e/%2e%2e/evil', false],
    ['https://gitlab.com/gitlab-org/cli/-/releases/v1%2F..%2F..%2Fx', false],
    ['https://gitlab.com:8443/gitlab-org/cli/-/releases/x', false],
    ['https://gitlab.com/evil/cli/-/releases/x', false],
    ['not a url', false],
  ])('allow-list: %s → %s', (url, allowed) => {
    expect(E.isRight(checkReleaseUrl('glab', url))).toBe(allowed);
  });

  it('takes the allow-list as a parameter', () => {
    const rules = [{ origin: 'http://127.0.0.1:8080', pathPrefix: '/gitlab-org/cli/-/releases/' }];
    expect(E.isRight(checkReleaseUrl('glab', 'http://127.0.0.1:8080/gitlab-org/cli/-/releases/x', rules))).toBe(true);
    expect(E.isRight(checkReleaseUrl('glab', `${base}/x`, rules))).toBe(false);
  });

  it('shares one location per tool, version and artifact', () => {
    const [darwin, linux, windows] = glab.artifacts;
    if (darwin === undefined || linux === undefined || windows === undefined) throw new Error('artifacts');
    expect(installLocation(glab, linux)).toEqual({ directory: 'tools/glab/1.46.0-bbbbbbbbbbbb', executable: 'glab' });
    expect(installLocation(glab, windows)).toEqual({ directory: 'tools/glab/1.46.0-cccccccccccc', executable: 'glab.exe' });
    expect(installLocation({ ...glab }, linux)).toEqual(installLocation(glab, linux));
  });

  it('plans only allow-listed artifacts with a safe archive path', () => {
    expect(planManagedInstall(glab, { os: 'linux', arch: 'x64' })).toMatchObject(E.right({ location: { directory: 'tools/glab/1.46.0-bbbbbbbbbbbb' } }));
    const escaping: ManagedTool = { ...glab, artifacts: [{ os: 'linux', arch: 'x64', url: `${base}/x.tar.gz`, sha256: sha('d'), format: 'tar.gz', path: '../../bin/sh' }] };
    expect(planManagedInstall(escaping, { os: 'linux', arch: 'x64' })).toMatchObject(E.left({ _tag: 'ArchiveEntryMissing' }));
    for (const path of ['C:/glab.exe', 'bin\\glab.exe', '/glab.exe', 'a/../../glab.exe']) {
      const zip: ManagedTool = { ...glab, artifacts: [{ os: 'windows', arch: 'x64', url: `${base}/x.zip`, sha256: sha('d'), format: 'zip', path }] };
      expect(planManagedInstall(zip, { os: 'windows', arch: 'x64' })).toMatchObject(E.left({ _tag: 'ArchiveEntryMissing', message: 'The zip artifact of glab must name the executable\'s relative path.' }));
    }
    const zip: ManagedTool = { ...glab, artifacts: [{ os: 'windows', arch: 'x64', url: `${base}/glab_1.46.0_windows_amd64.zip`, sha256: sha('e'), format: 'zip', path: 'bin/glab.exe' }] };
    expect(planManagedInstall(zip, { os: 'windows', arch: 'x64' })).toMatchObject(E.right({ location: { directory: 'tools/glab/1.46.0-eeeeeeeeeeee', executable: 'glab.exe' } }));
    const foreign: ManagedTool = { ...glab, artifacts: [{ os: 'linux', arch: 'x64', url: 'https://github.com/cli/cli/releases/x', sha256: sha('d') }] };
    expect(planManagedInstall(foreign, { os: 'linux', arch: 'x64' })).toMatchObject(E.left({ _tag: 'ReleaseUrlNotAllowed' }));
  });
});

describe('readTarEntry', () => {
  it('reads a file by path, with or without ./', () => {
    const archive = writeTar([
      { path: 'README.md', content: new TextEncoder().encode('readme') },
      { path: './bin/glab', content: new TextEncoder().encode('#!/bin/sh\necho glab\n') },
    ]);
    expect(new TextDecoder().decode(readTarEntry(archive, 'bin/glab'))).toBe('#!/bin/sh\necho glab\n');
    expect(readTarEntry(archive, 'bin/other')).toBeUndefined();
    expect(readTarEntry(archive.subarray(0, 700), 'bin/glab')).toBeUndefined();
    expect(readTarEntry(new Uint8Array(100), 'bin/glab')).toBeUndefined();
  });
});
