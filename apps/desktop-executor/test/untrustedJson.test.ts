import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PLUGIN_MANIFEST_BYTES, readPluginManifest, readUntrustedJson } from '../src/plugins/UntrustedJson.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'untrusted-json-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const packageWith = async (name: string, plant: (manifest: string) => Promise<void>): Promise<string> => {
  const root = join(work, name);
  await mkdir(join(root, '.codex-plugin'), { recursive: true });
  await plant(join(root, '.codex-plugin', 'plugin.json'));
  return root;
};

describe('readUntrustedJson and readPluginManifest', () => {
  it('parses a manifest, through a link too', async () => {
    const root = await packageWith('plain', (path) => writeFile(path, '{"name":"notes","version":"1.0.0"}'));
    expect(await readPluginManifest(root)).toEqual(E.right({ name: 'notes', version: '1.0.0' }));
    const linked = await packageWith('linked', (path) => symlink(join(root, '.codex-plugin', 'plugin.json'), path));
    expect(await readPluginManifest(linked)).toEqual(E.right({ name: 'notes', version: '1.0.0' }));
  });

  it('tells a missing manifest, a missing package and a file where the folder was apart from unreadable ones', async () => {
    expect(await readPluginManifest(join(work, 'absent'))).toEqual(E.left({ _tag: 'Missing' }));
    await writeFile(join(work, 'file-package'), '');
    expect(await readPluginManifest(join(work, 'file-package'))).toEqual(E.left({ _tag: 'Missing' }));
  });

  it('refuses a named pipe at once, a directory, and a manifest over its bound, without reading it', async () => {
    const piped = await packageWith('piped', async (path) => void execFileSync('mkfifo', [path]));
    expect(await readPluginManifest(piped)).toEqual(E.left({ _tag: 'Unreadable', code: 'EINVAL' }));
    const folder = await packageWith('folder', (path) => mkdir(path));
    expect(await readPluginManifest(folder)).toEqual(E.left({ _tag: 'Unreadable', code: 'EISDIR' }));
    const padded = `{"name":"big","pad":"${'x'.repeat(MAX_PLUGIN_MANIFEST_BYTES)}"}`;
    const big = await packageWith('big', (path) => writeFile(path, padded));
    expect(await readPluginManifest(big)).toEqual(E.left({ _tag: 'Unreadable', code: 'EFBIG' }));
  });

  it('answers NotJson for text that is not JSON, and for JSON behind a byte-order mark (JSON has none)', async () => {
    const broken = await packageWith('broken', (path) => writeFile(path, '{"name":'));
    expect(await readPluginManifest(broken)).toEqual(E.left({ _tag: 'NotJson' }));
    const marked = await packageWith('marked', (path) => writeFile(path, '\uFEFF{"name":"notes"}'));
    expect(await readPluginManifest(marked)).toEqual(E.left({ _tag: 'NotJson' }));
  });

  it('applies the bound the caller names', async () => {
    const path = join(work, 'state.json');
    await writeFile(path, '[1,2,3]');
    expect(await readUntrustedJson(path, 7)).toEqual(E.right([1, 2, 3]));
    expect(await readUntrustedJson(path, 6)).toEqual(E.left({ _tag: 'Unreadable', code: 'EFBIG' }));
  });
});
