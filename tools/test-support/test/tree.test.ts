import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashTrees, listTree } from '../src/index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'test-support-tree-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('listTree', () => {
  it('lists every entry with its kind, mode, content digest or link target, sorted', () => {
    mkdirSync(join(root, 'b/c'), { recursive: true });
    writeFileSync(join(root, 'b/c/file.txt'), 'hello');
    chmodSync(join(root, 'b/c/file.txt'), 0o640);
    chmodSync(root, 0o700);
    chmodSync(join(root, 'b'), 0o755);
    chmodSync(join(root, 'b/c'), 0o755);
    symlinkSync('b/c/file.txt', join(root, 'a-link'));
    expect(listTree(root)).toEqual([
      '. dir 700',
      'a-link link -> b/c/file.txt',
      'b dir 755',
      'b/c dir 755',
      'b/c/file.txt file 640 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    ]);
  });

  it('sees a change of content or mode, and nothing else', () => {
    writeFileSync(join(root, 'f'), 'one');
    const before = listTree(root);
    expect(listTree(root)).toEqual(before);
    writeFileSync(join(root, 'f'), 'two');
    expect(listTree(root)).not.toEqual(before);
    const again = listTree(root);
    chmodSync(join(root, 'f'), 0o600);
    expect(listTree(root)).not.toEqual(again);
  });

  it('leaves out what it is told to skip, contents included', () => {
    mkdirSync(join(root, 'logs/today'), { recursive: true });
    writeFileSync(join(root, 'logs/today/a.log'), 'x');
    writeFileSync(join(root, 'kept'), 'y');
    expect(listTree(root, { skip: (path) => path === 'logs' }).map((line) => line.split(' ')[0])).toEqual(['.', 'kept']);
  });

  it('lists nothing for a root that does not exist', () => {
    expect(listTree(join(root, 'absent'))).toEqual([]);
  });

  it('hashes trees in order, independent of where they are', () => {
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'f'), '1');
    writeFileSync(join(b, 'f'), '1');
    expect(hashTrees(a)).toBe(hashTrees(b));
    writeFileSync(join(b, 'g'), '2');
    expect(hashTrees(a, b)).not.toBe(hashTrees(b, a));
  });
});
