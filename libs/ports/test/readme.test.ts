/**
 * The example at the top of README.md, run as written (the block between the markers is the README's,
 * line for line); its `console` is a recording one, checked below it.
 */
import { expect, test } from 'vitest';
import { joinPath, PRIVATE_FILE_MODE } from '../src/index.js';
import { MemoryFileSystem, manualClock } from '../src/testing.js';

test('README example', async () => {
  const logged: string[] = [];
  const console = { log: (line: string) => void logged.push(line) };

  // --- README example begins ---
  const fs = new MemoryFileSystem().addDirectory('/home/ada');
  await fs.writeFileDurable({ path: joinPath('unix', '/home/ada', 'note.txt'), bytes: new TextEncoder().encode('hi'), mode: PRIVATE_FILE_MODE })();
  fs.textAt('/home/ada/note.txt'); // 'hi'

  const clock = manualClock(0);
  clock.set(1_000, () => console.log('due'));
  clock.advance(1_000); // logs 'due'
  // --- README example ends ---

  expect(fs.textAt('/home/ada/note.txt')).toBe('hi');
  expect(logged).toEqual(['due']);
});

test('a timer of the manual clock fires only once its time has come', () => {
  const clock = manualClock(0);
  const fired: string[] = [];
  clock.set(1_000, () => fired.push('due'));
  clock.advance(999);
  expect(fired).toEqual([]);
  clock.advance(1);
  expect(fired).toEqual(['due']);
});
