import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { validatePackage, type PackageEntry } from '../src/Package.js';
import { packageDigest, treeDigest } from '../src/TreeDigest.js';
import { createNodeFileSystem } from '../src/node/index.js';
import { hostilePathArbitrary, packageArbitrary } from '../src/testing.js';
import { listTree } from '@wework/test-support';

const bytes = new Uint8Array([104, 105]);
const file = (path: string): PackageEntry => ({ kind: 'file', path, mode: 0o644, bytes });
const link = (path: string, target: string): PackageEntry => ({ kind: 'symlink', path, target });
const rejection = (entries: ReadonlyArray<unknown>) => {
  const result = validatePackage(entries);
  return E.isLeft(result) ? result.left : null;
};

describe('validatePackage', () => {
  it('accepts a plain package, normalizes paths and modes, and adds implied directories', () => {
    const result = validatePackage([file('./skills//a/SKILL.md'), { kind: 'file', path: 'bin/run', mode: 0o4711, bytes }, link('bin/latest', 'run')]);
    expect(result).toEqual(
      E.right({
        _tag: 'ValidPackage',
        entries: [
          { kind: 'directory', path: 'bin', mode: 0o755 },
          { kind: 'symlink', path: 'bin/latest', target: 'run' },
          // Never broader than the source: 0o4711 loses set-uid, keeps --x for group and others.
          { kind: 'file', path: 'bin/run', mode: 0o711, bytes },
          { kind: 'directory', path: 'skills', mode: 0o755 },
          { kind: 'directory', path: 'skills/a', mode: 0o755 },
          { kind: 'file', path: 'skills/a/SKILL.md', mode: 0o644, bytes },
        ],
      }),
    );
  });

  it.each([
    [[file('../evil')], 'ParentSegment', '../evil'],
    [[file('a/../../evil')], 'ParentSegment', 'a/../../evil'],
    [[file('/etc/cron.d/x')], 'AbsolutePath', '/etc/cron.d/x'],
    [[file('C:/Windows/x')], 'AbsolutePath', 'C:/Windows/x'],
    [[file('..\\..\\evil')], 'Backslash', '..\\..\\evil'],
    [[file('a\u0000b')], 'ControlCharacter', 'a\u0000b'],
    [[file('')], 'EmptyPath', ''],
    [[file('./')], 'EmptyPath', './'],
    [[file('a'), file('./a')], 'DuplicatePath', './a'],
    [[file('Readme.md'), file('README.md')], 'CaseCollision', 'README.md'],
    [[file('Skills/a'), file('skills/b')], 'CaseCollision', 'skills/b'],
    [[link('l', 'sub'), file('l/x')], 'PathThroughSymlink', 'l/x'],
    [[file('f'), file('f/x')], 'PathThroughFile', 'f/x'],
    [[link('up', '..')], 'EscapingSymlink', 'up'],
    [[link('a/b/up', '../../..')], 'EscapingSymlink', 'a/b/up'],
    [[link('abs', '/etc/passwd')], 'EscapingSymlink', 'abs'],
    [[link('empty', '')], 'EscapingSymlink', 'empty'],
    // `s` resolves to the root, so `s/../x` is the root's parent: the kernel's view, not the lexical one.
    [[link('s', '.'), link('l', 's/../x')], 'EscapingSymlink', 'l'],
    [[link('d/s', '..'), link('d/l', 's/../x')], 'EscapingSymlink', 'd/l'],
    [[link('a', 'b'), link('b', 'a')], 'EscapingSymlink', 'a'],
    [[{ kind: 'other', path: 'dev/null', description: 'character device' }], 'SpecialFile', 'dev/null'],
    [[{ kind: 'file', path: 'x', mode: 0o644, bytes: 'not bytes' }], 'NotAnEntry', '#0'],
    [[null], 'NotAnEntry', '#0'],
  ] as const)('rejects %j: %s', (entries, reason, entry) => {
    expect(rejection(entries)).toEqual({ _tag: 'PackageRejected', reason, entry });
  });

  it('never throws, whatever it is given', () => {
    fc.assert(fc.property(fc.array(fc.anything()), (input) => {
      validatePackage(input);
    }));
  });

  it('rejects every hostile path', () => {
    fc.assert(fc.property(hostilePathArbitrary, (path) => E.isLeft(validatePackage([file(path)]))));
  });
});

/**
 * Where creating a file at `path` would land, resolving links one component at a time against the
 * real file system as the kernel does (`..` after a link applies to the link's target); `null` when
 * such a write would fail (a missing directory on the way, a loop).
 */
function whereWritesLand(path: string, depth = 0): string | null {
  if (depth > 40) return null;
  const parts = path.split(sep).filter((p) => p !== '');
  let current: string = sep;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (part === '.') continue;
    if (part === '..') {
      current = dirname(current);
      continue;
    }
    const candidate = join(current, part);
    let stat;
    try {
      stat = lstatSync(candidate);
    } catch {
      return last ? candidate : null;
    }
    if (stat.isSymbolicLink()) {
      const target = readlinkSync(candidate);
      const resolved = whereWritesLand(target.startsWith(sep) ? target : `${current}${sep}${target}`, depth + 1);
      if (resolved === null) return null;
      current = resolved;
    } else current = candidate;
  }
  return current;
}

describe('no accepted package can write outside its root (written to disk and checked with realpath)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'sync-tx-package-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const fs = createNodeFileSystem({ durability: 'none' });
  let n = 0;

  it('the oracle resolves like the kernel: it sees the escape a lexical check misses', () => {
    const root = join(scratch, 'oracle', 'root');
    mkdirSync(root, { recursive: true });
    symlinkSync('.', join(root, 's'));
    symlinkSync('s/../x', join(root, 'l'));
    expect(whereWritesLand(join(root, 'l'))).toBe(join(scratch, 'oracle', 'x'));
    expect(rejection([link('s', '.'), link('l', 's/../x')])).toMatchObject({ reason: 'EscapingSymlink' });
  });

  it('holds for arbitrary packages, hostile entries included', async () => {
    let accepted = 0;
    let links = 0;
    await fc.assert(
      fc.asyncProperty(packageArbitrary(10), async (entries) => {
        const validated = validatePackage(entries);
        if (E.isLeft(validated)) return;
        accepted++;
        const sandbox = join(scratch, `case-${n++}`);
        const root = join(sandbox, 'root');
        mkdirSync(root, { recursive: true });
        // Write it as a transaction stages it: directories, files, then links.
        for (const entry of validated.right.entries) {
          const path = join(root, entry.path);
          if (entry.kind === 'directory') mkdirSync(path, { mode: entry.mode });
          else if (entry.kind === 'file' && 'bytes' in entry) expect(E.isRight(await fs.writeFiles([{ path, bytes: entry.bytes, mode: entry.mode }])())).toBe(true);
          else if (entry.kind === 'file') throw new Error('the arbitraries make in-memory files only');
          else expect(E.isRight(await fs.symlink(entry.target, path)())).toBe(true);
        }
        // Nothing appeared beside the root.
        expect(readdirSync(sandbox)).toEqual(['root']);
        // Every path, and wherever every link leads (as far as it exists), is inside the root.
        const realRoot = realpathSync(root);
        for (const line of listTree(root)) {
          const relative = line.slice(0, line.indexOf(' '));
          const path = join(root, relative);
          if (lstatSync(path).isSymbolicLink()) {
            links++;
            const target = whereWritesLand(path);
            if (target === null) continue;
            expect(target === realRoot || target.startsWith(realRoot + sep), `${relative} -> ${target}`).toBe(true);
          }
        }
        // The digest of the written tree is the package's digest.
        expect(await treeDigest(fs, root)()).toEqual(E.right(packageDigest(fs.digest, validated.right)));
        rmSync(sandbox, { recursive: true, force: true });
      }),
      { numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(20);
    expect(links).toBeGreaterThan(5);
  });
});
