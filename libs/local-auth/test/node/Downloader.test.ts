import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpDownloader } from '../../src/node/index.js';
import { tempDir } from '../support.js';

const artifact = Buffer.from('artifact bytes '.repeat(1000));

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The origin: serves the artifact, a redirect to it, a body longer than allowed, and one that stalls. */
const originRequests: string[] = [];
const origin = createServer((request, response) => {
  originRequests.push(request.url ?? '');
  if (request.url === '/artifact') return void response.end(artifact);
  if (request.url === '/moved') return void response.writeHead(302, { location: '/artifact' }).end();
  if (request.url === '/stall') {
    response.writeHead(200, { 'content-length': String(artifact.length) });
    response.write(artifact.subarray(0, 10));
    return;
  }
  response.writeHead(404).end();
});

/**
 * A forwarding HTTP proxy on loopback: takes absolute-form requests, records them (and whether they
 * carried the expected credentials), and forwards them to the origin.
 */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorized: boolean;
}
const seen: Seen[] = [];
const proxy = createServer((request: IncomingMessage, response) => {
  const target = new URL(request.url ?? '');
  seen.push({ method: request.method ?? '', url: request.url ?? '', authorized: request.headers['proxy-authorization'] === `Basic ${Buffer.from('ada:s3cret').toString('base64')}` });
  const upstream = httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', () => response.writeHead(502).end());
  request.pipe(upstream);
});

// An https:// download asks for a CONNECT tunnel; this proxy records it and refuses, so no TLS is needed.
proxy.on('connect', (request: IncomingMessage, socket: Socket) => {
  seen.push({ method: request.method ?? '', url: request.url ?? '', authorized: request.headers['proxy-authorization'] === `Basic ${Buffer.from('ada:s3cret').toString('base64')}` });
  socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
});

let originHost = '';
let proxyHost = '';
beforeAll(async () => {
  originHost = await listen(origin);
  proxyHost = await listen(proxy);
});
afterAll(async () => {
  origin.closeAllConnections();
  proxy.closeAllConnections();
  await Promise.all([close(origin), close(proxy)]);
});
const dirs: Array<{ remove: () => void }> = [];
afterEach(() => {
  dirs.splice(0).forEach((dir) => dir.remove());
  seen.length = 0;
  originRequests.length = 0;
});
const destination = () => {
  const dir = tempDir('downloads-');
  dirs.push(dir);
  return join(dir.path, 'download');
};

describe('httpDownloader through a proxy', () => {
  it('sends an http:// download through HTTP_PROXY, with its credentials, and follows redirects through it', async () => {
    const to = destination();
    const downloader = httpDownloader({ env: { HTTP_PROXY: `http://ada:s3cret@${proxyHost}` } });
    expect(await downloader.download(new URL(`http://${originHost}/moved`), to)).toEqual(E.right(undefined));
    expect(readFileSync(to)).toEqual(artifact);
    expect(seen).toEqual([
      { method: 'GET', url: `http://${originHost}/moved`, authorized: true },
      { method: 'GET', url: `http://${originHost}/artifact`, authorized: true },
    ]);
    expect(originRequests).toEqual(['/moved', '/artifact']);
  });

  it('takes http_proxy over HTTP_PROXY and goes direct for a NO_PROXY host', async () => {
    const lower = httpDownloader({ env: { http_proxy: `http://${proxyHost}`, HTTP_PROXY: 'http://127.0.0.1:9' } });
    expect(await lower.download(new URL(`http://${originHost}/artifact`), destination())).toEqual(E.right(undefined));
    expect(seen.map((request) => request.url)).toEqual([`http://${originHost}/artifact`]);
    seen.length = 0;
    for (const noProxy of ['127.0.0.1', originHost, `localhost, 127.0.0.1:${originHost.split(':')[1]}`, '*']) {
      const to = destination();
      const bypassing = httpDownloader({ env: { HTTP_PROXY: `http://${proxyHost}`, no_proxy: noProxy } });
      expect(await bypassing.download(new URL(`http://${originHost}/artifact`), to)).toEqual(E.right(undefined));
      expect(readFileSync(to)).toEqual(artifact);
    }
    expect(seen).toEqual([]);
    // A NO_PROXY entry for another port does not bypass.
    const otherPort = httpDownloader({ env: { HTTP_PROXY: `http://${proxyHost}`, NO_PROXY: '127.0.0.1:9' } });
    expect(await otherPort.download(new URL(`http://${originHost}/artifact`), destination())).toEqual(E.right(undefined));
    expect(seen).toHaveLength(1);
  });

  it('asks HTTPS_PROXY for a tunnel to an https:// host, and does not go around a proxy that refuses', async () => {
    const downloader = httpDownloader({ env: { HTTPS_PROXY: `http://ada:s3cret@${proxyHost}`, HTTP_PROXY: 'http://127.0.0.1:9' } });
    expect(await downloader.download(new URL('https://releases.example.test/glab.zip'), destination())).toEqual(E.left('the proxy could not be reached or refused the request'));
    expect(seen).toEqual([{ method: 'CONNECT', url: 'releases.example.test:443', authorized: true }]);
  });

  it('fails without going direct when the proxy is unusable, naming the variable and never its value', async () => {
    const invalid = await httpDownloader({ env: { HTTP_PROXY: 'socks5://ada:s3cret@127.0.0.1:1080' } }).download(new URL(`http://${originHost}/artifact`), destination());
    expect(invalid).toEqual(E.left('HTTP_PROXY is not a usable proxy URL'));
    // Nothing listens on port 9 of loopback.
    const unreachable = await httpDownloader({ env: { HTTP_PROXY: 'http://ada:s3cret@127.0.0.1:9' } }).download(new URL(`http://${originHost}/artifact`), destination());
    expect(unreachable).toEqual(E.left('the proxy could not be reached or refused the request'));
    expect(JSON.stringify([invalid, unreachable])).not.toContain('s3cret');
    expect(originRequests).toEqual([]);
  });
});

describe('httpDownloader bounds', () => {
  it('refuses bodies larger than maxBytes and stalls past the idle timeout; reports statuses', async () => {
    const downloader = httpDownloader({ env: {}, maxBytes: 100 });
    expect(await downloader.download(new URL(`http://${originHost}/artifact`), destination())).toEqual(E.left('too large'));
    const idle = httpDownloader({ env: {}, idleTimeoutMs: 200 });
    expect(await idle.download(new URL(`http://${originHost}/stall`), destination())).toEqual(E.left('timed out'));
    expect(await idle.download(new URL(`http://${originHost}/missing`), destination())).toEqual(E.left('HTTP 404'));
  });

  it('gives up after the total timeout and when cancelled', async () => {
    const slow = httpDownloader({ env: {}, timeoutMs: 200, idleTimeoutMs: 60_000 });
    expect(await slow.download(new URL(`http://${originHost}/stall`), destination())).toEqual(E.left('timed out'));
    const controller = new AbortController();
    const cancelled = httpDownloader({ env: {} }).download(new URL(`http://${originHost}/stall`), destination(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await cancelled).toEqual(E.left('cancelled'));
  });

  it('never follows a redirect from https to http, nor more redirects than allowed', async () => {
    const downloader = httpDownloader({ env: {}, maxRedirects: 0 });
    expect(await downloader.download(new URL(`http://${originHost}/moved`), destination())).toEqual(E.left('too many redirects'));
    expect(await downloader.download(new URL('ftp://example.invalid/x'), destination())).toEqual(E.left('unsupported protocol'));
  });
});
