/**
 * The user's marketplace order and labels on disk: one small JSON file in the executor's home, decoded
 * when read (a missing or unreadable file is the empty order; an unreadable one is logged by size only)
 * and saved all or nothing through the file-system port (`saveStateFile` of `@wework/plugin-inventory`: a flushed temporary
 * file renamed over the old one; a failed save removes its temporary file and the directories it made), so a crash or a
 * failing disk leaves the old order or the new one, never a torn file.
 */
import * as E from 'fp-ts/lib/Either.js';
import { decodeMarketplaceOrder, encodeMarketplaceOrder, saveStateFile, type MarketplacePreferences } from '@wework/plugin-inventory';
import type { FileSystemPort, Log } from '@wework/ports';

/** A stored order larger than this is not read (it is never that large). */
const MAX_PREFERENCES_BYTES = 256 * 1024;

/** The stored marketplace preferences. */
export interface MarketplacePreferencesStore {
  read(): Promise<MarketplacePreferences>;
  /** Replaces the stored preferences atomically; `Left` with the file-system error code. */
  write(preferences: MarketplacePreferences): Promise<E.Either<string, void>>;
}

const EMPTY: MarketplacePreferences = { names: [], labels: {} };

/**
 * The regular file `path` if it holds at most {@link MAX_PREFERENCES_BYTES}; `Left` with the port's error
 * code (`ENOENT` when it is missing, `EFBIG` when it is larger, `EISDIR` or `EINVAL` when it is no file).
 */
const readBounded = async (fs: FileSystemPort, path: string): Promise<E.Either<string, Uint8Array>> => {
  const read = await fs.readFile(path, { followSymlink: true, maxBytes: MAX_PREFERENCES_BYTES })();
  return E.isLeft(read) ? E.left(read.left.code) : read;
};

/** The store of the file `path` through the file-system port `fs`. */
export function marketplacePreferencesStore(fs: FileSystemPort, path: string, log: Log): MarketplacePreferencesStore {
  return {
    read: async () => {
      const bytes = await readBounded(fs, path);
      if (E.isLeft(bytes)) {
        if (bytes.left !== 'ENOENT') log({ event: 'marketplace order unreadable', fields: { code: bytes.left } });
        return EMPTY;
      }
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder().decode(bytes.right));
      } catch {
        log({ event: 'marketplace order unreadable', fields: { reason: 'not JSON', bytes: bytes.right.byteLength } });
        return EMPTY;
      }
      const decoded = decodeMarketplaceOrder(json);
      if (E.isLeft(decoded)) {
        log({ event: 'marketplace order unreadable', fields: { reason: 'shape', bytes: bytes.right.byteLength } });
        return EMPTY;
      }
      return decoded.right;
    },
    write: async (preferences) => {
      const bytes = new TextEncoder().encode(`${JSON.stringify(encodeMarketplaceOrder(preferences), null, 2)}\n`);
      const written = await saveStateFile(fs, path, bytes)();
      return E.isLeft(written) ? E.left(written.left.code) : E.right(undefined);
    },
  };
}
