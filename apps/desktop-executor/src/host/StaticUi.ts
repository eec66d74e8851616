/**
 * The web host's static files, served on the executor's loopback port (`serve.js --ws --ui`): the
 * files of the built bundle only, held in memory from the start (so no request ever reaches the file
 * system, and no path can leave the bundle), with their content types, no directory listing, and a
 * `Content-Security-Policy` that lets the page run only its own script and connect only to this port.
 * Requests whose `Host` is not this loopback port are refused (a DNS-rebinding page cannot read them).
 *
 * Every function here is pure: a request and the bundle in, a response out.
 */

/** One file of the bundle. */
export interface UiFile {
  readonly contentType: string;
  readonly body: Uint8Array;
}

/** The bundle by URL path (`/index.html`, `/app.js`, ...); `/` is `/index.html`. */
export type UiBundle = ReadonlyMap<string, UiFile>;

/** How many files a bundle may hold, and how many bytes together. */
export const UI_BUNDLE_LIMITS = { maxFiles: 64, maxBytes: 16 * 1024 * 1024 } as const;

/** How long one request for the page's files may take (its headers included) before it is dropped. */
export const UI_REQUEST_TIMEOUT_MS = 10_000;

/** The content types of the files a bundle may hold, by extension; a file of any other kind is not served. */
export const UI_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

/** The content type of a bundle file name, or `null` when such files are not served. */
export function uiContentType(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? null : (UI_CONTENT_TYPES[name.slice(dot).toLowerCase()] ?? null);
}

/** A request as the server sees it. */
export interface UiRequest {
  readonly method: string;
  /** The request target, as sent (`/`, `/app.js?x`, ...). */
  readonly url: string;
  /** The `Host` header, if any. */
  readonly host: string | undefined;
}

/** The response to send. */
export interface UiResponse {
  readonly status: 200 | 400 | 404 | 405 | 421;
  readonly headers: Readonly<Record<string, string>>;
  /** `null` for HEAD and for the errors' short text (in `text`). */
  readonly body: Uint8Array | null;
}

/** The headers every response carries: nothing may frame, sniff, cache or refer from it. */
const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

/**
 * The page's Content-Security-Policy: scripts and styles from this origin only (no inline script, no
 * eval), connections only to this port's WebSocket, nothing else.
 */
export function uiContentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const encoder = new TextEncoder();

const plain = (status: UiResponse['status'], text: string, port: number, extra: Readonly<Record<string, string>> = {}): UiResponse => {
  const body = encoder.encode(`${text}\n`);
  return {
    status,
    headers: { ...COMMON_HEADERS, 'content-security-policy': uiContentSecurityPolicy(port), 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length), ...extra },
    body,
  };
};

/** Whether `host` names this loopback port (`127.0.0.1:<port>` or `localhost:<port>`). */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const wanted = host.toLowerCase();
  return wanted === `127.0.0.1:${port}` || wanted === `localhost:${port}`;
}

/**
 * The response to a request for the web host's files. Only `GET` and `HEAD` (else 405); only
 * requests to this loopback port (else 421); only the exact path of a bundle file, `/` being
 * `/index.html` (else 404 — no decoding, so `/%2e%2e/…` and `/../…` name nothing; no listing).
 * @example
 * ```ts
 * uiResponse({ method: 'GET', url: '/', host: '127.0.0.1:4000' }, bundle, 4000).status; // 200, the page
 * uiResponse({ method: 'GET', url: '/../package.json', host: '127.0.0.1:4000' }, bundle, 4000).status; // 404
 * ```
 */
export function uiResponse(request: UiRequest, bundle: UiBundle, port: number): UiResponse {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method Not Allowed', port, { allow: 'GET, HEAD' });
  if (!isLoopbackHost(request.host, port)) return plain(421, 'Misdirected Request', port);
  if (!request.url.startsWith('/')) return plain(400, 'Bad Request', port);
  const query = request.url.search(/[?#]/);
  const path = query < 0 ? request.url : request.url.slice(0, query);
  const file = bundle.get(path === '/' ? '/index.html' : path);
  if (file === undefined) return plain(404, 'Not Found', port);
  return {
    status: 200,
    headers: { ...COMMON_HEADERS, 'content-security-policy': uiContentSecurityPolicy(port), 'content-type': file.contentType, 'content-length': String(file.body.length) },
    body: request.method === 'HEAD' ? null : file.body,
  };
}

/** Why a bundle could not be loaded. */
export type UiBundleError =
  | { readonly _tag: 'UiNotBuilt'; readonly message: string }
  | { readonly _tag: 'UiTooLarge'; readonly message: string };

/**
 * The bundle of the files found (name and bytes, from the bundle's directory, without
 * subdirectories): files of a kind not served are left out; more than the limits is an error, and so
 * is a bundle without `index.html`.
 */
export function uiBundleOf(files: ReadonlyArray<{ readonly name: string; readonly body: Uint8Array }>): { readonly _tag: 'Right'; readonly bundle: UiBundle } | { readonly _tag: 'Left'; readonly error: UiBundleError } {
  const served = files.flatMap((file) => {
    const contentType = uiContentType(file.name);
    return contentType === null || file.name.includes('/') || file.name.startsWith('.') ? [] : [{ path: `/${file.name}`, file: { contentType, body: file.body } }];
  });
  const bytes = served.reduce((sum, f) => sum + f.file.body.length, 0);
  if (served.length > UI_BUNDLE_LIMITS.maxFiles || bytes > UI_BUNDLE_LIMITS.maxBytes) {
    return { _tag: 'Left', error: { _tag: 'UiTooLarge', message: `the web host bundle is larger than ${UI_BUNDLE_LIMITS.maxFiles} files or ${UI_BUNDLE_LIMITS.maxBytes} bytes` } };
  }
  if (!served.some((f) => f.path === '/index.html')) return { _tag: 'Left', error: { _tag: 'UiNotBuilt', message: 'the web host is not built (no index.html); run the build first' } };
  return { _tag: 'Right', bundle: new Map(served.map((f) => [f.path, f.file])) };
}
