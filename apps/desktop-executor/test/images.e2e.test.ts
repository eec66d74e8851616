/**
 * Image attachments against the real app-server: the executor prepares each attachment for the model
 * category, sends it as a local image, and the scripted model records what reached it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelCategory } from '@wework/image-preprocess';
import { createTurnImageStore } from '@wework/image-preprocess/node';
import { respond, say, type RecordedRequest } from '@wework/scripted-model';
import { threadParamsFor } from '../src/executorConfig.js';
import { managedConfig, startSandbox } from './support/executorSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const host = { showCard: () => Promise.resolve({ action: 'cancel' as const }) };
const sha256 = async (path: string): Promise<string> => createHash('sha256').update(await readFile(path)).digest('hex');

/** Sizes of every image the model received in a request (data URLs decoded). */
async function imagesReceived(request: RecordedRequest | undefined): Promise<Array<{ width: number; height: number }>> {
  const urls = JSON.stringify(request?.body ?? {}).match(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g) ?? [];
  return Promise.all(
    urls.map(async (url) => {
      const meta = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata();
      return { width: meta.width ?? 0, height: meta.height ?? 0 };
    }),
  );
}

async function sendImage(width: number, height: number, category: ModelCategory) {
  const attachments = await mkdtemp(join(tmpdir(), 'attachments-'));
  const storeRoot = await mkdtemp(join(tmpdir(), 'model-input-'));
  cleanups.push(() => rm(attachments, { recursive: true, force: true }), () => rm(storeRoot, { recursive: true, force: true }));
  const original = join(attachments, `photo-${width}x${height}.jpg`);
  await writeFile(original, await sharp({ create: { width, height, channels: 3, background: '#3366aa' } }).jpeg().toBuffer());
  const before = await sha256(original);

  const box = await startSandbox({ script: [respond(say('seen'))], host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
  const store = createTurnImageStore({ root: storeRoot });
  const turnImages = store.beginTurn('turn-1');
  const prepared = await turnImages.prepare(original, category);
  if (E.isLeft(prepared)) throw new Error(JSON.stringify(prepared.left));
  try {
    await box.runtime.runTurn(box.threadId, [
      { type: 'text', text: 'What is in the picture?', text_elements: [] },
      { type: 'localImage', path: prepared.right.path },
    ]);
  } finally {
    await turnImages.end();
  }
  const receivedNow = await imagesReceived(box.model.requests[0]);
  return { received: receivedNow, prepared: prepared.right, original, before, storeRoot };
}

describe('image attachments', () => {
  it('a 4000×3000 photo reaches a non-official model as 960×720; the temp file is gone and the original unchanged', async () => {
    const run = await sendImage(4000, 3000, 'nonOfficial');
    expect(run.received).toEqual([{ width: 960, height: 720 }]);
    expect(run.prepared._tag).toBe('Resized');
    expect(existsSync(run.prepared.path)).toBe(false);
    expect(await readdir(run.storeRoot)).toEqual([]);
    expect(await sha256(run.original)).toBe(run.before);
  });

  it('a 6000×800 panorama keeps its aspect ratio: 5400×720', async () => {
    const run = await sendImage(6000, 800, 'nonOfficial');
    expect(run.prepared).toMatchObject({ _tag: 'Resized', width: 5400, height: 720 });
    const prepared = await sharp(run.prepared.path).metadata().catch(() => undefined);
    expect(prepared).toBeUndefined(); // removed when the turn ended
    // Codex 0.171.0 then fits every image it forwards into its own limit (long edge 2048), keeping the
    // aspect ratio: the model sees 2048×273 (see docs/codex-vs-spec.md).
    expect(run.received).toEqual([{ width: 2048, height: 273 }]);
  });

  it('a 1000×700 image is sent as the original file', async () => {
    const run = await sendImage(1000, 700, 'nonOfficial');
    expect(run.prepared).toMatchObject({ _tag: 'Original', path: run.original });
    expect(run.received).toEqual([{ width: 1000, height: 700 }]);
    expect(await sha256(run.original)).toBe(run.before);
  });

  it('an official model gets the original 4000×3000 file', async () => {
    const run = await sendImage(4000, 3000, 'official');
    expect(run.prepared).toMatchObject({ _tag: 'Original', path: run.original, width: 4000, height: 3000 });
    expect(await sha256(run.original)).toBe(run.before);
    // The executor sends the original; Codex 0.171.0 downsizes what it forwards on its own (1824×1368).
    expect(run.received).toEqual([{ width: 1824, height: 1368 }]);
  });
});
