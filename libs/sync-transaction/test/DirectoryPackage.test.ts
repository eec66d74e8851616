/**
 * `directoryPackageSource`: an unpacked package directory as the transaction's extractor port — every
 * entry reported as it is (links, modes), nothing trusted, and a missing directory as `ExtractionFailed`.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { validatePackage } from '../src/Package.js';
import { commitChange } from '../src/Transaction.js';
import { cacheDirectoryOf } from '../src/Layout.js';
import { createNodePorts, directoryPackageSource } from '../src/node/index.js';
import { sandbox } from './support/homes.js';
import { listTree } from './support/tree.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
const scratch = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'sync-tx-dir-'));
  roots.push(root);
  return root;
};

describe('directoryPackageSource', () => {
  it('reports files with bytes and modes, directories and links, sorted, relative to the root', async () => {
    const root = scratch();
    mkdirSync(join(root, 'skills/fill'), { recursive: true });
    writeFileSync(join(root, 'skills/fill/SKILL.md'), 'fill');
    writeFileSync(join(root, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(root, 'run.sh'), 0o755);
    symlinkSync('run.sh', join(root, 'latest'));
    const entries = await directoryPackageSource(root).extract()();
    expect(entries).toEqual(
      E.right([
        { kind: 'symlink', path: 'latest', target: 'run.sh' },
        { kind: 'file', path: 'run.sh', mode: 0o755, bytes: new Uint8Array(Buffer.from('#!/bin/sh\n')) },
        { kind: 'directory', path: 'skills', mode: expect.any(Number) },
        { kind: 'directory', path: 'skills/fill', mode: expect.any(Number) },
        { kind: 'file', path: 'skills/fill/SKILL.md', mode: expect.any(Number), bytes: new Uint8Array(Buffer.from('fill')) },
      ]),
    );
  });

  it('reports an escaping link as it is, so validation rejects the package', async () => {
    const root = scratch();
    symlinkSync('../../etc', join(root, 'out'));
    const entries = await directoryPackageSource(root).extract()();
    if (E.isLeft(entries)) throw new Error(entries.left.detail);
    expect(validatePackage(entries.right)).toMatchObject({ left: { _tag: 'PackageRejected', reason: 'EscapingSymlink', entry: 'out' } });
  });

  it('a missing directory is ExtractionFailed with its error code', async () => {
    expect(await directoryPackageSource(join(scratch(), 'absent')).extract()()).toEqual(E.left({ _tag: 'ExtractionFailed', detail: 'ENOENT' }));
  });

  it('installs into the caches exactly the tree it read', async () => {
    const root = scratch();
    mkdirSync(join(root, '.codex-plugin'));
    writeFileSync(join(root, '.codex-plugin/plugin.json'), '{"name":"forms"}');
    const box = sandbox();
    roots.push(box.root);
    const plugin = { name: 'forms', marketplace: 'wework' };
    expect(await commitChange(createNodePorts({ durability: 'none' }), box.homes, { _tag: 'Install', plugin, version: '1.0.0', source: directoryPackageSource(root), at: 'x' })()).toMatchObject({
      right: { outcome: 'Committed' },
    });
    expect(listTree(join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'))).filter((line) => !line.startsWith('. '))).toEqual(
      listTree(root).filter((line) => !line.startsWith('. ')),
    );
  });
});
