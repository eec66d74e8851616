/**
 * The web host's static files: only the exact paths of the bundle's files are served (no traversal,
 * no decoding, no listing), with their content types and the page's Content-Security-Policy on every
 * answer; only GET and HEAD; only requests addressed to this loopback port.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, uiBundleOf, uiContentSecurityPolicy, uiResponse, UI_BUNDLE_LIMITS, type UiBundle } from '../src/host/StaticUi.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const loaded = uiBundleOf([
  { name: 'index.html', body: bytes('<!doctype html>') },
  { name: 'app.js', body: bytes('export {}') },
  { name: 'styles.css', body: bytes('body{}') },
  { name: 'notes.txt', body: bytes('not served') },
  { name: '.env', body: bytes('SECRET=1') },
]);
if (loaded._tag === 'Left') throw new Error(loaded.error.message);
const bundle: UiBundle = loaded.bundle;
const PORT = 4123;
const HOST = `127.0.0.1:${PORT}`;
const get = (url: string, host: string | null = HOST, method = 'GET') => uiResponse({ method, url, host: host ?? undefined }, bundle, PORT);

describe('the web host files', () => {
  it('serves the page at / and each bundle file at its exact path, with its content type', () => {
    expect(get('/')).toMatchObject({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(get('/index.html').body).toEqual(bytes('<!doctype html>'));
    expect(get('/app.js?v=1')).toMatchObject({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8', 'content-length': '9' } });
    expect(get('/styles.css')).toMatchObject({ status: 200, headers: { 'content-type': 'text/css; charset=utf-8' } });
    expect(get('/app.js', HOST, 'HEAD')).toMatchObject({ status: 200, body: null, headers: { 'content-length': '9' } });
    expect(get('/', `localhost:${PORT}`).status).toBe(200);
  });

  it('holds only files of the kinds it serves, never hidden ones', () => {
    expect([...bundle.keys()].sort()).toEqual(['/app.js', '/index.html', '/styles.css']);
    expect(get('/notes.txt').status).toBe(404);
    expect(get('/.env').status).toBe(404);
  });

  it('answers 404 to every other path, traversal and encodings included, and lists no directory', () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '//etc/passwd', '/app.js/', '/APP.JS', '/dist/', '/index.html%00', '/./app.js', '/%61pp.js']) expect(get(url).status).toBe(404);
    expect(get('app.js').status).toBe(400);
    expect(get('*').status).toBe(400);
    fc.assert(
      fc.property(fc.string(), (path) => {
        const url = `/${path}`;
        const target = url.split(/[?#]/)[0];
        const known = target === '/' || bundle.has(target ?? '');
        expect(get(url).status).toBe(known ? 200 : 404);
      }),
    );
  });

  it('answers only GET and HEAD, and only requests addressed to this loopback port', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE']) expect(get('/', HOST, method)).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
    for (const host of [null, 'evil.example', `127.0.0.1:${PORT + 1}`, `evil.example:${PORT}`, '127.0.0.1']) expect(get('/', host).status).toBe(421);
    expect(isLoopbackHost(`LOCALHOST:${PORT}`, PORT)).toBe(true);
  });

  it('puts the Content-Security-Policy and the no-sniff, no-frame, no-cache headers on every answer', () => {
    const policy = uiContentSecurityPolicy(PORT);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`connect-src ws://127.0.0.1:${PORT} ws://localhost:${PORT}`);
    expect(policy).not.toContain('unsafe-inline');
    for (const response of [get('/'), get('/nope'), get('/', 'evil'), get('/', HOST, 'POST')]) {
      expect(response.headers).toMatchObject({ 'content-security-policy': policy, 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    }
  });

  it('refuses a bundle without its page, or over its limits', () => {
    expect(uiBundleOf([{ name: 'app.js', body: bytes('') }])).toMatchObject({ _tag: 'Left', error: { _tag: 'UiNotBuilt' } });
    const many = Array.from({ length: UI_BUNDLE_LIMITS.maxFiles + 1 }, (_, i) => ({ name: i === 0 ? 'index.html' : `f${i}.js`, body: bytes('') }));
    expect(uiBundleOf(many)).toMatchObject({ _tag: 'Left', error: { _tag: 'UiTooLarge' } });
    expect(uiBundleOf([{ name: 'index.html', body: new Uint8Array(UI_BUNDLE_LIMITS.maxBytes + 1) }])).toMatchObject({ _tag: 'Left', error: { _tag: 'UiTooLarge' } });
  });
});
