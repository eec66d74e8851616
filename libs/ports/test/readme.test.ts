/**
 * The example at the top of README.md, kept compiling and passing.
 */
import { expect, test } from 'vitest';
import { joinPath, PRIVATE_FILE_MODE } from '../src/index.js';
import { MemoryFileSystem, manualClock } from '../src/testing.js';

test('README example', async () => {
  const fs = new MemoryFileSystem().addDirectory('/home/ada');
  await fs.writeFileDurable({ path: joinPath('unix', '/home/ada', 'note.txt'), bytes: new TextEncoder().encode('hi'), mode: PRIVATE_FILE_MODE })();
  expect(fs.textAt('/home/ada/note.txt')).toBe('hi');

  const clock = manualClock(0);
  const fired: string[] = [];
  clock.set(1_000, () => fired.push('due'));
  clock.advance(999);
  expect(fired).toEqual([]);
  clock.advance(1);
  expect(fired).toEqual(['due']);
});
