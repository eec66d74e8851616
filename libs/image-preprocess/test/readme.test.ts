/**
 * The example at the top of README.md, kept compiling and passing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir as systemTmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { describeImageError, modelCategoryOf } from '../src/index.js';
import { createTurnImageStore } from '../src/node/index.js';
import { solid } from './images.js';

test('README example', async () => {
  const work = await mkdtemp(join(systemTmpdir(), 'image-preprocess-readme-'));
  const tmpdir = (): string => work;
  const attachmentPath = join(work, 'photo.jpg');
  await writeFile(attachmentPath, await solid(4000, 3000).jpeg().toBuffer());
  const turnId = 'turn-readme';
  const modelInputs: string[] = [];
  try {
    // --- README example begins ---
    const store = createTurnImageStore({ root: join(tmpdir(), 'wework-model-inputs') });
    await store.sweepLeftovers(); // once, at executor start: removes turns a previous run left behind

    const turn = store.beginTurn(turnId);
    try {
      const image = await turn.prepare(attachmentPath, modelCategoryOf('localModelInterface'));
      if (image._tag === 'Left') console.warn(describeImageError(image.left)); // NotFound, Empty, Corrupt, Truncated, …
      else modelInputs.push(image.right.path); // { _tag: 'Resized', width: 960, height: 720, path: '<root>/turn-…/1-photo.jpg', … }
    } finally {
      await turn.end(); // completed, failed or interrupted: the turn's files are removed
    }
    // --- README example ends ---
    // The model got one resized file inside the turn's directory, and the turn's end removed both.
    expect(modelInputs).toEqual([expect.stringMatching(/\/1-photo\.jpg$/)]);
    expect(dirname(modelInputs[0]!).startsWith(join(work, 'wework-model-inputs'))).toBe(true);
    expect(existsSync(modelInputs[0]!)).toBe(false);
    expect(existsSync(dirname(modelInputs[0]!))).toBe(false);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
