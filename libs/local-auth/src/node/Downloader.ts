/**
 * The port through which managed tools are downloaded, and its implementation on `fetch` that honours
 * `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (lower case too, see {@link proxyFor}).
 *
 * Node's own `fetch` is undici, but Node 20 exposes no proxy dispatcher, and a dispatcher from the
 * undici package is not accepted across majors by the `fetch` bundled with another Node; so `fetch` and
 * `ProxyAgent` both come from the one undici package, and every download closes what it opened.
 */
import { open, type FileHandle } from 'node:fs/promises';
import * as E from 'fp-ts/lib/Either.js';
import { Agent, fetch, ProxyAgent, type Dispatcher } from 'undici';
import { proxyFor, type ProxyEnvironment } from '../ProxyRule.js';

/**
 * Downloads `url` into the file `destination`. Resolves `Left(reason)` on any failure (the file may then
 * hold a partial download; the caller discards it). Never rejects. Reasons are fixed texts that never
 * carry the URL, a proxy setting or a server's words.
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
  /** Give up when the whole download takes longer; default 30 min. */
  readonly timeoutMs?: number;
  /** The proxy variables; default `process.env`. */
  readonly env?: ProxyEnvironment;
}

class DownloadRefused extends Error {}

/**
 * A {@link Downloader} over `fetch`: goes through the proxy the environment names for each URL (redirects
 * are decided again, so a redirect to a `NO_PROXY` host goes direct), follows redirects (never from
 * https to http), fails on non-2xx statuses, on bodies larger than `maxBytes` or shorter than
 * `Content-Length`, when idle or slow past its timeouts, and when aborted.
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
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const env = options.env ?? process.env;

  return {
    async download(url, destination, signal) {
      const dispatchers = new Map<string, Dispatcher>();
      const dispatcherFor = (proxy: string | undefined): Dispatcher => {
        const key = proxy ?? '';
        let dispatcher = dispatchers.get(key);
        if (dispatcher === undefined) {
          // `proxyTunnel: false`: an http:// URL is asked of the proxy in absolute form, as curl does; an
          // https:// one always goes through a CONNECT tunnel.
          const connect = { timeout: idleTimeoutMs };
          dispatcher = proxy === undefined ? new Agent({ connect, bodyTimeout: idleTimeoutMs, headersTimeout: idleTimeoutMs }) : new ProxyAgent({ uri: proxy, proxyTunnel: false, connect, bodyTimeout: idleTimeoutMs, headersTimeout: idleTimeoutMs });
          dispatchers.set(key, dispatcher);
        }
        return dispatcher;
      };
      const idle = new AbortController();
      let idleTimer: NodeJS.Timeout | undefined;
      const touch = (): void => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => idle.abort(), idleTimeoutMs);
      };
      const total = AbortSignal.timeout(timeoutMs);
      const aborted = AbortSignal.any([idle.signal, total, ...(signal === undefined ? [] : [signal])]);
      const why = (): string => (signal?.aborted === true ? 'cancelled' : total.aborted || idle.signal.aborted ? 'timed out' : 'interrupted');
      let file: FileHandle | undefined;
      try {
        let current = url;
        for (let redirects = 0; ; redirects++) {
          if (current.protocol !== 'https:' && current.protocol !== 'http:') return E.left('unsupported protocol');
          const route = proxyFor(current, env);
          if (route._tag === 'InvalidProxy') return E.left(`${route.variable} is not a usable proxy URL`);
          touch();
          let response: Awaited<ReturnType<typeof fetch>>;
          try {
            response = await fetch(current, {
              redirect: 'manual',
              signal: aborted,
              headers: { 'accept-encoding': 'identity' },
              dispatcher: dispatcherFor(route._tag === 'Proxy' ? route.proxy : undefined),
            });
          } catch {
            return E.left(aborted.aborted ? why() : route._tag === 'Proxy' ? 'the proxy could not be reached or refused the request' : 'the connection failed');
          }
          const location = response.headers.get('location');
          if (response.status >= 300 && response.status < 400 && location !== null) {
            await response.body?.cancel();
            if (redirects >= maxRedirects) return E.left('too many redirects');
            let next: URL;
            try {
              next = new URL(location, current);
            } catch {
              return E.left('bad redirect');
            }
            if (current.protocol === 'https:' && next.protocol !== 'https:') return E.left('redirect away from https');
            current = next;
            continue;
          }
          if (response.status < 200 || response.status >= 300) {
            await response.body?.cancel();
            return E.left(`HTTP ${response.status}`);
          }
          const declared = Number(response.headers.get('content-length') ?? NaN);
          if (declared > maxBytes) {
            await response.body?.cancel();
            return E.left('too large');
          }
          file = await open(destination, 'w');
          let received = 0;
          try {
            for await (const chunk of response.body ?? []) {
              touch();
              received += chunk.length;
              if (received > maxBytes) throw new DownloadRefused('too large');
              let written = 0;
              while (written < chunk.length) written += (await file.write(chunk, written, chunk.length - written)).bytesWritten;
            }
          } catch (error) {
            return E.left(error instanceof DownloadRefused ? error.message : aborted.aborted ? why() : 'interrupted');
          }
          if (Number.isFinite(declared) && received !== declared) return E.left('interrupted');
          return E.right(undefined);
        }
      } catch {
        return E.left(aborted.aborted ? why() : 'interrupted');
      } finally {
        clearTimeout(idleTimer);
        await file?.close().catch(() => undefined);
        await Promise.all([...dispatchers.values()].map((dispatcher) => dispatcher.destroy().catch(() => undefined)));
      }
    },
  };
}
