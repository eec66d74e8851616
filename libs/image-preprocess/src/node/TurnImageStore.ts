/**
 * Turn-scoped model-input files: one directory per turn under a root owned by the store,
 * removed when the turn ends, and swept at executor start for turns a previous run left behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { outputFormatOf, type ImageError, type PreparedImage, type RemoveFailed } from '../ImageError.js';
import { DEFAULT_MAX_PIXELS, MAX_SHORT_EDGE, displayedSize, planImage } from '../ImagePlan.js';
import type { ModelCategory } from '../ModelCategory.js';
import { measureImage, writeResized } from './ImageFile.js';

/** Every turn directory's name starts with this; `sweepLeftovers` removes only such entries. */
export const TURN_DIRECTORY_PREFIX = 'turn-';

/** Options of {@link createTurnImageStore}. */
export interface TurnImageStoreOptions {
  /** A directory owned by the store (created when needed). Turn directories live directly under it. */
  readonly root: string;
  /** Short edge limit for non-official models (default 720). */
  readonly maxShortEdge?: number;
  /** Decompression-bomb guard for images that must be decoded (default 100 megapixels). */
  readonly maxPixels?: number;
}

/** The images of one turn. */
export interface TurnImages {
  readonly turnId: string;
  /** The turn's directory (created on the first reduced copy). */
  readonly directory: string;
  /**
   * What to send to the model for one attachment. Reads only the header to decide; official
   * models and images whose short edge is at most the limit get the original path (never copied,
   * never rewritten); otherwise a reduced copy is written into the turn's directory.
   */
  prepare(attachmentPath: string, modelCategory: ModelCategory): Promise<E.Either<ImageError, PreparedImage>>;
  /**
   * Removes the turn's directory and every model-input file in it, after waiting for the
   * `prepare` calls in flight. Call it whether the turn completed, failed or was interrupted;
   * calling it again does nothing. Later `prepare` calls return `TurnEnded`.
   */
  end(): Promise<E.Either<RemoveFailed, void>>;
}

/** A store of turn-scoped model-input files. */
export interface TurnImageStore {
  readonly root: string;
  /** Starts a turn. Two turns with the same id get different directories. */
  beginTurn(turnId: string): TurnImages;
  /**
   * Removes every turn directory under the root: those a previous executor run left behind
   * (crash, kill). Call it once at executor start, before the first turn. Returns the names removed.
   */
  sweepLeftovers(): Promise<E.Either<RemoveFailed, ReadonlyArray<string>>>;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A file-system-safe, bounded form of an untrusted id. */
const safeName = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'turn';

/**
 * Creates a store of turn-scoped model-input files under `root`.
 *
 * @example
 * ```ts
 * import { createTurnImageStore } from '@wework/image-preprocess/node';
 *
 * const store = createTurnImageStore({ root: join(tmpdir(), 'wework-model-inputs') });
 * await store.sweepLeftovers(); // at executor start
 * const turn = store.beginTurn(turnId);
 * try {
 *   const image = await turn.prepare('/attachments/photo.jpg', 'nonOfficial');
 *   if (image._tag === 'Right') send(image.right.path); // a 960×720 copy of a 4000×3000 photo
 * } finally {
 *   await turn.end();
 * }
 * ```
 */
export function createTurnImageStore(options: TurnImageStoreOptions): TurnImageStore {
  const root = options.root;
  const maxShortEdge = options.maxShortEdge ?? MAX_SHORT_EDGE;
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;

  const beginTurn = (turnId: string): TurnImages => {
    const directory = join(root, `${TURN_DIRECTORY_PREFIX}${safeName(turnId)}-${randomBytes(6).toString('hex')}`);
    const inFlight = new Set<Promise<unknown>>();
    let ended: Promise<E.Either<RemoveFailed, void>> | undefined;
    let counter = 0;

    const prepareNow = async (attachmentPath: string, modelCategory: ModelCategory): Promise<E.Either<ImageError, PreparedImage>> => {
      const measured = await measureImage(attachmentPath);
      if (E.isLeft(measured)) return measured;
      const image = measured.right;
      const plan = planImage({ modelCategory, width: image.width, height: image.height, orientation: image.orientation }, { maxShortEdge, maxPixels });
      if (E.isLeft(plan)) {
        return plan.left._tag === 'TooManyPixels'
          ? E.left({ ...plan.left, path: attachmentPath })
          : E.left({ _tag: 'Corrupt', path: attachmentPath, reason: `invalid dimensions ${plan.left.width}×${plan.left.height}` });
      }
      if (plan.right._tag === 'PassThrough') {
        const shown = displayedSize(image);
        return E.right({ _tag: 'Original', path: attachmentPath, width: shown.width, height: shown.height, format: image.format, bytes: image.bytes, modelCategory });
      }
      counter += 1;
      const stem = safeName(basename(attachmentPath, extname(attachmentPath)));
      const target = join(directory, `${counter}-${stem}.${outputFormatOf(image.format) === 'jpeg' ? 'jpg' : outputFormatOf(image.format)}`);
      try {
        await mkdir(directory, { recursive: true });
      } catch (error) {
        return E.left({ _tag: 'WriteFailed', path: target, reason: messageOf(error) });
      }
      const written = await writeResized({ source: attachmentPath, target, format: image.format, plan: plan.right, maxPixels });
      if (E.isLeft(written)) return written;
      return E.right({ _tag: 'Resized', path: target, width: plan.right.width, height: plan.right.height, format: image.format, bytes: written.right, modelCategory });
    };

    const prepare = (attachmentPath: string, modelCategory: ModelCategory): Promise<E.Either<ImageError, PreparedImage>> => {
      if (ended !== undefined) return Promise.resolve(E.left({ _tag: 'TurnEnded', turnId }));
      const pending = prepareNow(attachmentPath, modelCategory).catch((error: unknown) => E.left<ImageError>({ _tag: 'Corrupt', path: attachmentPath, reason: messageOf(error) }));
      inFlight.add(pending);
      void pending.finally(() => inFlight.delete(pending));
      return pending;
    };

    const end = (): Promise<E.Either<RemoveFailed, void>> => {
      ended ??= (async () => {
        await Promise.allSettled([...inFlight]);
        try {
          await rm(directory, { recursive: true, force: true });
          return E.right(undefined);
        } catch (error) {
          return E.left({ _tag: 'RemoveFailed', path: directory, reason: messageOf(error) });
        }
      })();
      return ended;
    };

    return { turnId, directory, prepare, end };
  };

  const sweepLeftovers = async (): Promise<E.Either<RemoveFailed, ReadonlyArray<string>>> => {
    let names: string[];
    try {
      names = (await readdir(root)).filter((name) => name.startsWith(TURN_DIRECTORY_PREFIX));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return E.right([]);
      return E.left({ _tag: 'RemoveFailed', path: root, reason: messageOf(error) });
    }
    for (const name of names) {
      try {
        await rm(join(root, name), { recursive: true, force: true });
      } catch (error) {
        return E.left({ _tag: 'RemoveFailed', path: join(root, name), reason: messageOf(error) });
      }
    }
    return E.right(names);
  };

  return { root, beginTurn, sweepLeftovers };
}
