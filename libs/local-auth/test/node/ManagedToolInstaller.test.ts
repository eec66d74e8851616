import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as E from 'fp-ts/lib/Either.js';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedTool, ToolArtifact } from '../../src/LocalAuthManifest.js';
import { writeTar } from '../../src/internal/Tar.js';
import { currentPlatform, httpDownloader, managedToolInstaller, sidecarDirectory, toolResolver } from '../../src/node/index.js';
import { tempDir } from '../support.js';

const script = Buffer.from('#!/bin/sh\necho "glab version 1.46.0"\n');
const archive = gzipSync(writeTar([{ path: 'bin/glab', content: script }]));
const zipArchive = zipSync({ 'glab/bin/glab.exe': script, 'glab/README.md': Buffer.from('readme') });
/** A zip whose directory claims 100 bytes for 4 MiB of zeros. */
const zipBomb = (() => {
  const zip = zipSync({ 'bin/glab': new Uint8Array(4 * 1024 * 1024) }, { level: 9 });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = zip.length - 22; at >= 0; at--) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 100, true);
  return zip;
})();
const tarBomb = gzipSync(writeTar([{ path: 'bin/glab', content: new Uint8Array(8 * 1024 * 1024) }]));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const prefix = '/gitlab-org/cli/-/releases/v1.46.0/downloads';

const requests: string[] = [];
const server = createServer((request, response) => {
  requests.push(request.url ?? '');
  if (request.url === `${prefix}/glab.tar.gz`) return void response.end(archive);
  if (request.url === `${prefix}/glab-raw`) return void response.end(script);
  if (request.url === `${prefix}/glab.zip`) return void response.end(zipArchive);
  if (request.url === `${prefix}/bomb.zip`) return void response.end(zipBomb);
  if (request.url === `${prefix}/bomb.tar.gz`) return void response.end(tarBomb);
  if (request.url === `${prefix}/redirect`) return void response.writeHead(302, { location: `${prefix}/glab-raw` }).end();
  if (request.url === `${prefix}/truncated`) {
    response.writeHead(200, { 'content-length': String(archive.length) });
    response.write(archive.subarray(0, archive.length >> 1));
    setTimeout(() => response.destroy(), 20);
    return;
  }
  response.writeHead(404).end();
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dirs: Array<{ remove: () => void }> = [];
afterEach(() => {
  dirs.splice(0).forEach((dir) => dir.remove());
  requests.length = 0;
});

const platform = { os: 'linux', arch: 'x64' } as const;
const tool = (artifact: Partial<ToolArtifact> & { readonly file: string }): ManagedTool => {
  const { file, ...rest } = artifact;
  return { source: 'managed', name: 'glab', version: '1.46.0', artifacts: [{ os: 'linux', arch: 'x64', url: `${origin}${prefix}/${file}`, sha256: sha256(archive), format: 'tar.gz', path: 'bin/glab', ...rest }] };
};
const setup = (options: { allowListed?: boolean; staleStagingMs?: number; maxUnpackedBytes?: number } = {}) => {
  const home = tempDir('executor-home-');
  dirs.push(home);
  const installer = managedToolInstaller({
    executorHome: home.path,
    downloader: httpDownloader({ env: {} }),
    platform,
    ...(options.allowListed === false ? {} : { allowList: [{ origin, pathPrefix: '/gitlab-org/cli/-/releases/' }] }),
    ...(options.staleStagingMs === undefined ? {} : { staleStagingMs: options.staleStagingMs }),
    ...(options.maxUnpackedBytes === undefined ? {} : { archiveLimits: { maxUnpackedBytes: options.maxUnpackedBytes } }),
  });
  const toolsDir = join(home.path, 'tools', 'glab');
  const staging = join(home.path, 'tools', '.staging');
  const leftovers = () => (existsSync(staging) ? readdirSync(staging) : []);
  return { installer, home: home.path, toolsDir, leftovers };
};

describe('managedToolInstaller', () => {
  it('installs a verified artifact once and shares it between plugins', async () => {
    const { installer, home, leftovers } = setup();
    const fromPluginA = tool({ file: 'glab.tar.gz' });
    const fromPluginB = tool({ file: 'glab.tar.gz' });
    const [a, b] = await Promise.all([installer.ensure(fromPluginA), installer.ensure(fromPluginB)]);
    const again = await installer.ensure(fromPluginB);
    const expected = join(home, 'tools', 'glab', `1.46.0-${sha256(archive).slice(0, 12)}`, 'glab');
    expect([a, b, again]).toEqual([E.right(expected), E.right(expected), E.right(expected)]);
    expect(requests).toEqual([`${prefix}/glab.tar.gz`]);
    expect(execFileSync(expected, { encoding: 'utf8' })).toBe('glab version 1.46.0\n');
    expect(leftovers()).toEqual([]);
    // Another executor process finds the installation without downloading.
    const later = managedToolInstaller({ executorHome: home, downloader: httpDownloader({ env: {} }), platform, allowList: [{ origin, pathPrefix: '/gitlab-org/cli/-/releases/' }] });
    expect(await later.ensure(fromPluginA)).toEqual(E.right(expected));
    expect(requests).toHaveLength(1);
  });

  it('installs a raw binary behind a redirect', async () => {
    const { installer } = setup();
    const result = await installer.ensure(tool({ file: 'redirect', format: 'binary', sha256: sha256(script) }));
    if (E.isLeft(result)) throw new Error(result.left.message);
    expect(execFileSync(result.right, { encoding: 'utf8' })).toBe('glab version 1.46.0\n');
  });

  it('installs the declared entry of a zip artifact', async () => {
    const { installer, home, leftovers } = setup();
    const result = await installer.ensure(tool({ file: 'glab.zip', format: 'zip', path: 'glab/bin/glab.exe', sha256: sha256(zipArchive) }));
    const expected = join(home, 'tools', 'glab', `1.46.0-${sha256(zipArchive).slice(0, 12)}`, 'glab.exe');
    expect(result).toEqual(E.right(expected));
    expect(readdirSync(join(expected, '..')).sort()).toEqual(['glab.exe', 'receipt.json']);
    expect(execFileSync(expected, { encoding: 'utf8' })).toBe('glab version 1.46.0\n');
    expect(leftovers()).toEqual([]);
  });

  it('a zip without the declared entry, a zip bomb and a tar.gz past the unpacked limit install nothing', async () => {
    const { installer, toolsDir, leftovers } = setup({ maxUnpackedBytes: 1024 * 1024 });
    expect(await installer.ensure(tool({ file: 'glab.zip', format: 'zip', path: 'bin/glab', sha256: sha256(zipArchive) }))).toMatchObject(E.left({ _tag: 'ArchiveEntryMissing' }));
    expect(await installer.ensure(tool({ file: 'bomb.zip', format: 'zip', path: 'bin/glab', sha256: sha256(zipBomb) }))).toMatchObject(E.left({ _tag: 'ArchiveRefused', reason: 'size_mismatch' }));
    expect(await installer.ensure(tool({ file: 'bomb.tar.gz', sha256: sha256(tarBomb) }))).toMatchObject(E.left({ _tag: 'ArchiveRefused', reason: 'entry_too_large' }));
    // A tar.gz served where a zip is declared is no zip.
    expect(await installer.ensure(tool({ file: 'glab.tar.gz', format: 'zip' }))).toMatchObject(E.left({ _tag: 'ArchiveEntryMissing' }));
    expect(existsSync(toolsDir)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('a wrong checksum installs nothing', async () => {
    const { installer, toolsDir, leftovers } = setup();
    const result = await installer.ensure(tool({ file: 'glab.tar.gz', sha256: '0'.repeat(64) }));
    expect(result).toMatchObject(E.left({ _tag: 'ChecksumMismatch', expected: '0'.repeat(64), actual: sha256(archive) }));
    expect(existsSync(toolsDir)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('a URL outside the allow-list is refused before any download', async () => {
    const { installer, toolsDir } = setup({ allowListed: false });
    expect(await installer.ensure(tool({ file: 'glab.tar.gz' }))).toMatchObject(E.left({ _tag: 'ReleaseUrlNotAllowed' }));
    expect(requests).toEqual([]);
    expect(existsSync(toolsDir)).toBe(false);
  });

  it('an interrupted download leaves no usable partial binary', async () => {
    const { installer, toolsDir, leftovers } = setup();
    expect(await installer.ensure(tool({ file: 'truncated' }))).toMatchObject(E.left({ _tag: 'DownloadFailed' }));
    expect(existsSync(toolsDir)).toBe(false);
    expect(leftovers()).toEqual([]);
    expect(await installer.ensure(tool({ file: 'missing' }))).toMatchObject(E.left({ _tag: 'DownloadFailed', message: expect.stringContaining('HTTP 404') }));
  });

  it('an install interrupted by a crash is neither used nor kept', async () => {
    const { installer, home, leftovers } = setup({ staleStagingMs: 0 });
    // What a crash mid-install leaves: a staging directory with a partial binary.
    const crashed = join(home, 'tools', '.staging', 'glab-crashed');
    mkdirSync(crashed, { recursive: true });
    writeFileSync(join(crashed, 'glab'), script.subarray(0, 5));
    const result = await installer.ensure(tool({ file: 'glab.tar.gz' }));
    if (E.isLeft(result)) throw new Error(result.left.message);
    expect(result.right.startsWith(join(home, 'tools', 'glab'))).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('a damaged installation is detected and replaced', async () => {
    const { installer, home } = setup();
    const result = await installer.ensure(tool({ file: 'glab.tar.gz' }));
    if (E.isLeft(result)) throw new Error(result.left.message);
    writeFileSync(result.right, 'tampered');
    const fresh = managedToolInstaller({ executorHome: home, downloader: httpDownloader({ env: {} }), platform, allowList: [{ origin, pathPrefix: '/gitlab-org/cli/-/releases/' }] });
    expect(await fresh.ensure(tool({ file: 'glab.tar.gz' }))).toEqual(result);
    expect(execFileSync(result.right, { encoding: 'utf8' })).toBe('glab version 1.46.0\n');
    expect(requests).toHaveLength(2);
  });
});

describe('tool resolution', () => {
  it('resolves bundled sidecars from the client and managed tools through the installer', async () => {
    const sidecars = tempDir('sidecars-');
    dirs.push(sidecars);
    writeFileSync(join(sidecars.path, 'dws'), script, { mode: 0o755 });
    const { installer } = setup();
    const resolver = toolResolver(sidecarDirectory(sidecars.path, 'linux'), installer);
    expect(await resolver.resolve({ source: 'bundled', sidecar: 'dws' })).toEqual(E.right(join(sidecars.path, 'dws')));
    expect(await resolver.resolve({ source: 'bundled', sidecar: 'missing' })).toMatchObject(E.left({ _tag: 'SidecarNotFound' }));
    expect(await sidecarDirectory(sidecars.path, 'win32')('dws')).toMatchObject(E.left({ _tag: 'SidecarNotFound' }));
    expect(E.isRight(await resolver.resolve(tool({ file: 'glab.tar.gz' })))).toBe(true);
  });

  it('maps Node platforms', () => {
    expect(currentPlatform('darwin', 'arm64')).toEqual({ os: 'darwin', arch: 'arm64' });
    expect(currentPlatform('win32', 'x64')).toEqual({ os: 'windows', arch: 'x64' });
    expect(currentPlatform('freebsd', 'x64')).toBeUndefined();
    expect(currentPlatform('linux', 'ia32')).toBeUndefined();
  });
});
