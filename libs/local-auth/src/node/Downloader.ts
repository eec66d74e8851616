/**
 * The port through which managed tools are downloaded, and its HTTP(S) implementation.
 */
import { createWriteStream } from 'node:fs';
import { get as httpGet } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { pipeline } from 'node:stream/promises';
import * as E from 'fp-ts/lib/Either.js';

/**
 * Downloads `url` into the file `destination`. Resolves `Left(reason)` on any failure (the file may then
 * hold a partial download; the caller discards it). Never rejects.
 */
export interface Downloader {
  download(url: URL, destination: string, signal?: AbortSignal): Promise<E.Either<string, void>>;
}

/** Options of {@link httpDownloader}. */
export interface HttpDownloaderOptions {
  /** Redirects followed (release downloads redirect to storage); default 5. */
  readonly maxRedirects?: number;
  /** Refuse bodies larger than this; default 512 MiB. */
  readonly maxBytes?: number;
  /** Give up when no byte arrived for this long; default 60 s. */
  readonly idleTimeoutMs?: number;
}

/**
 * A {@link Downloader} over Node's `http`/`https`: follows redirects (never from https to http), fails on
 * non-2xx statuses, on truncated bodies (fewer bytes than `Content-Length`) and when aborted.
 *
 * @example
 * ```ts
 * const downloader = httpDownloader();
 * await downloader.download(new URL('https://gitlab.com/gitlab-org/cli/-/releases/...'), join(stagingDirectory, 'glab.tar.gz'));
 * ```
 */
export function httpDownloader(options: HttpDownloaderOptions = {}): Downloader {
  const maxRedirects = options.maxRedirects ?? 5;
  const maxBytes = options.maxBytes ?? 512 * 1024 * 1024;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const request = (url: URL, signal: AbortSignal | undefined): Promise<E.Either<string, IncomingMessage>> =>
    new Promise((settle) => {
      const get = url.protocol === 'https:' ? httpsGet : url.protocol === 'http:' ? httpGet : undefined;
      if (get === undefined) return settle(E.left(`unsupported protocol ${url.protocol}`));
      const req = get(url, { ...(signal === undefined ? {} : { signal }), timeout: idleTimeoutMs }, (response) => settle(E.right(response)));
      req.on('timeout', () => req.destroy(new Error('idle timeout')));
      req.on('error', (error) => settle(E.left(error.message)));
    });
  return {
    async download(url, destination, signal) {
      let current = url;
      for (let redirects = 0; ; redirects++) {
        const response = await request(current, signal);
        if (E.isLeft(response)) return response;
        const status = response.right.statusCode ?? 0;
        const location = response.right.headers.location;
        if (status >= 300 && status < 400 && location !== undefined) {
          response.right.resume();
          if (redirects >= maxRedirects) return E.left('too many redirects');
          const next = new URL(location, current);
          if (current.protocol === 'https:' && next.protocol !== 'https:') return E.left('redirect away from https');
          current = next;
          continue;
        }
        if (status < 200 || status >= 300) {
          response.right.resume();
          return E.left(`HTTP ${status}`);
        }
        const declared = Number(response.right.headers['content-length'] ?? NaN);
        if (declared > maxBytes) {
          response.right.destroy();
          return E.left('too large');
        }
        let received = 0;
        response.right.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) response.right.destroy(new Error('too large'));
        });
        try {
          await pipeline(response.right, createWriteStream(destination), ...(signal === undefined ? [] : [{ signal }]));
        } catch (error) {
          return E.left(error instanceof Error ? error.message : 'interrupted');
        }
        if (!response.right.complete || (Number.isFinite(declared) && received !== declared)) return E.left('interrupted');
        return E.right(undefined);
      }
    },
  };
}
