/**
 * The browser build: a Node built-in anywhere in the import graph fails it (naming the built-in and
 * the module that imported it), and the real app builds without one, its size reported per file.
 */
import { builtinModules } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILES, bundleWebHost, formatSizes, isNodeBuiltin } from '../scripts/bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});
const outdir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'web-host-bundle-'));
  temps.push(dir);
  return dir;
};

describe('the Node built-in check', () => {
  it('knows every built-in, bare or with node:, with subpaths, and no package that merely looks like one', () => {
    for (const name of builtinModules) {
      expect(isNodeBuiltin(name)).toBe(true);
      expect(isNodeBuiltin(`node:${name}`)).toBe(true);
    }
    expect(isNodeBuiltin('fs/promises')).toBe(true);
    for (const name of ['preact', 'preact/hooks', 'fp-ts/lib/Either.js', 'io-ts', '@wework/host-protocol', 'fs-extra', 'pathe', './path.js']) expect(isNodeBuiltin(name)).toBe(false);
    fc.assert(fc.property(fc.stringMatching(/^@[a-z]+\/[a-z-]+$/), (scoped) => !isNodeBuiltin(scoped)));
  });

  it('fails the build on a node: import, naming it and its importer', async () => {
    await expect(bundleWebHost({ root, outdir: await outdir(), entry: join(root, 'test/fixtures/usesNodeFs.ts') })).rejects.toMatchObject({
      errors: [expect.objectContaining({ text: 'the browser bundle may not use the Node built-in "node:fs" (imported by test/fixtures/usesNodeFs.ts)' })],
    });
  });

  it('fails the build on a bare built-in imported further down the graph', async () => {
    await expect(bundleWebHost({ root, outdir: await outdir(), entry: join(root, 'test/fixtures/usesBarePath.ts') })).rejects.toMatchObject({
      errors: [expect.objectContaining({ text: 'the browser bundle may not use the Node built-in "path" (imported by test/fixtures/importsPath.ts)' })],
    });
  });
});

describe('the web host bundle', () => {
  it('builds the app with the workspace libraries unchanged and reports each file and the total', async () => {
    const sizes = await bundleWebHost({ root, outdir: await outdir() });
    expect(sizes.map((s) => s.name)).toEqual(BUNDLE_FILES);
    for (const s of sizes) expect(s.gzipBytes).toBeLessThan(s.bytes);
    const report = formatSizes(sizes);
    expect(report.split('\n')).toHaveLength(BUNDLE_FILES.length + 2);
    expect(report).toMatch(/total\s+[\d.]+ KiB {2}\(gzip [\d.]+ KiB\)/);
  });
});
