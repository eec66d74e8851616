/**
 * The drift check: the checked-in generated files match what the pinned codex binary produces,
 * and any change to one of them is reported.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compareDirectories, compareTrees, formatDrift, hasDrift } from '../src/drift.mjs';
import { writeTree } from '../src/fsTree.mjs';
import { generateLibraryFiles } from '../src/generate.mjs';
import { libRoot, managedDirectories } from '../src/paths.mjs';

let scratch = '';
let regenerated = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'protocol-drift-test-'));
  regenerated = join(scratch, 'regenerated');
  await writeTree(regenerated, await generateLibraryFiles(), managedDirectories);
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A copy of the checked-in managed directories, to tamper with. */
const copyOfCheckedIn = async (name: string): Promise<string> => {
  const copy = join(scratch, name);
  for (const dir of managedDirectories) await cp(join(libRoot, dir), join(copy, dir), { recursive: true });
  return copy;
};

describe('drift check', () => {
  test('the checked-in files are exactly what the pinned binary generates', async () => {
    const report = await compareDirectories(regenerated, libRoot, managedDirectories);
    expect(formatDrift(report)).toBe('Generated protocol files are up to date.');
    expect(hasDrift(report)).toBe(false);
  });

  test('changing one generated protocol file makes the check fail and name that file', async () => {
    const copy = await copyOfCheckedIn('changed');
    const file = 'src/generated/v2/ThreadItem.ts';
    const text = await readFile(join(copy, file), 'utf8');
    await writeFile(join(copy, file), text.replace('"agentMessage"', '"agentMessageRenamed"'));
    const report = await compareDirectories(regenerated, copy, managedDirectories);
    expect(report).toEqual({ changed: [file], missing: [], unexpected: [] });
    expect(hasDrift(report)).toBe(true);
    expect(formatDrift(report)).toContain(`changed:    ${file}`);
  });

  test('a hand edit of a generated codec, a deleted file and a stray file are reported too', async () => {
    const copy = await copyOfCheckedIn('edited');
    await writeFile(join(copy, 'src/codecs/codecs.ts'), `${await readFile(join(copy, 'src/codecs/codecs.ts'), 'utf8')}\n`);
    await rm(join(copy, 'src/generated/v2/ThreadStartParams.ts'));
    await writeFile(join(copy, 'src/generated/v2/Stray.ts'), 'export type Stray = string;\n');
    expect(await compareDirectories(regenerated, copy, managedDirectories)).toEqual({
      changed: ['src/codecs/codecs.ts'],
      missing: ['src/generated/v2/ThreadStartParams.ts'],
      unexpected: ['src/generated/v2/Stray.ts'],
    });
  });
});

describe('compareTrees', () => {
  test('compares byte for byte', () => {
    const expected = new Map([
      ['a.ts', 'x'],
      ['b.ts', 'y'],
    ]);
    expect(compareTrees(expected, new Map(expected))).toEqual({ changed: [], missing: [], unexpected: [] });
    expect(compareTrees(expected, new Map([['a.ts', 'x '], ['c.ts', '']]))).toEqual({
      changed: ['a.ts'],
      missing: ['b.ts'],
      unexpected: ['c.ts'],
    });
  });
});
