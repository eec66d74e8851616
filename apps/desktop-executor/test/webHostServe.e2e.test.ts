/**
 * `serve.js --ws --ui` end to end: the executor process serves the built web host on its loopback
 * port and prints one address whose fragment carries the launch token. The page's own origin may open
 * the WebSocket with the token as its subprotocol (and gets it selected), another origin may not, and
 * the token is needed; the files are served with their headers over real HTTP; nothing the executor
 * logs holds the token.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { readWebHostLaunch } from '@wework/host-protocol';
import { announcedEndpoint, startServeInSandbox, type ServedExecutor } from './support/hostAbuse.js';

const cleanups: Array<() => Promise<void>> = [];
let served: ServedExecutor;
let endpoint: { readonly port: number; readonly token: string; readonly url?: string };

beforeAll(async () => {
  served = await startServeInSandbox(['--ws', '--ui'], cleanups);
  endpoint = await announcedEndpoint(served);
}, 120_000);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A raw HTTP request to the executor's port (the Host header as given). */
function fetchRaw(path: string, options: { readonly method?: string; readonly host?: string } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: endpoint.port, path, method: options.method ?? 'GET', headers: { host: options.host ?? `127.0.0.1:${endpoint.port}` } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket as a browser page would; resolves with the selected subprotocol, or rejects with the refusal's status. */
function openAsPage(origin: string, protocols: ReadonlyArray<string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}/`, [...protocols], { origin });
    socket.once('open', () => {
      resolve(socket.protocol);
      socket.close();
    });
    socket.once('unexpected-response', (_req, res) => {
      reject(new Error(`refused ${res.statusCode ?? 0}`));
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describe('serve.js --ws --ui', () => {
  it('prints one address: the page on 127.0.0.1 with the token in the fragment only', () => {
    expect(typeof endpoint.url).toBe('string');
    const url = new URL(endpoint.url ?? '');
    expect(url.origin).toBe(`http://127.0.0.1:${endpoint.port}`);
    expect(`${url.pathname}${url.search}`).toBe('/');
    expect(readWebHostLaunch(url.hash)).toEqual({ token: endpoint.token, workspace: expect.stringContaining('workspace') });
  });

  it('serves the page and its files with their content types and the Content-Security-Policy, and nothing else', async () => {
    const page = await fetchRaw('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<script type="module" src="/app.js"></script>');
    expect((await fetchRaw('/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await fetchRaw('/styles.css')).status).toBe(200);
    for (const path of ['/../package.json', '/%2e%2e/%2e%2e/package.json', '/dist/', '/index.html/..', '/favicon.ico']) expect((await fetchRaw(path)).status).toBe(404);
    expect((await fetchRaw('/', { method: 'POST' })).status).toBe(405);
    expect((await fetchRaw('/', { host: `attacker.example:${endpoint.port}` })).status).toBe(421);
  });

  it("lets the page's own origin open the WebSocket with the token as subprotocol, and refuses other origins and a wrong token", async () => {
    expect(await openAsPage(`http://127.0.0.1:${endpoint.port}`, [endpoint.token])).toBe(endpoint.token);
    expect(await openAsPage(`http://localhost:${endpoint.port}`, [endpoint.token])).toBe(endpoint.token);
    await expect(openAsPage('http://attacker.example', [endpoint.token])).rejects.toThrow('refused 403');
    await expect(openAsPage(`http://127.0.0.1:${endpoint.port}`, ['0'.repeat(64)])).rejects.toThrow('refused 401');
  });

  it('never logs the token', async () => {
    await expect.poll(() => served.stderr(), { timeout: 10_000 }).toContain('web host served');
    expect(served.stderr()).not.toContain(endpoint.token);
  });
});
