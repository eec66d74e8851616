import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFor, type ProxyEnvironment } from '../src/ProxyRule.js';

const at = (url: string, env: ProxyEnvironment) => proxyFor(new URL(url), env);
const proxied = (proxy: string, variable: string) => ({ _tag: 'Proxy', proxy, variable });
const direct = { _tag: 'Direct' };

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const port = fc.integer({ min: 1, max: 65535 }).map(String);
const scheme = fc.constantFrom('http', 'https');

describe('proxyFor', () => {
  it('takes the variable of the scheme, lower case first, https falling back to the http proxy', () => {
    const env = { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2', http_proxy: 'http://plain-low:3', HTTP_PROXY: 'http://plain-up:4' };
    expect(at('https://gitlab.com/x', env)).toEqual(proxied('http://low:1/', 'https_proxy'));
    expect(at('https://gitlab.com/x', { ...env, https_proxy: '' })).toEqual(proxied('http://up:2/', 'HTTPS_PROXY'));
    expect(at('https://gitlab.com/x', { http_proxy: 'http://plain-low:3' })).toEqual(proxied('http://plain-low:3/', 'http_proxy'));
    expect(at('http://gitlab.com/x', env)).toEqual(proxied('http://plain-low:3/', 'http_proxy'));
    expect(at('http://gitlab.com/x', { HTTP_PROXY: 'http://plain-up:4' })).toEqual(proxied('http://plain-up:4/', 'HTTP_PROXY'));
    // An http:// URL never goes to the https proxy.
    expect(at('http://gitlab.com/x', { HTTPS_PROXY: 'http://up:2' })).toEqual(direct);
  });

  it('reads a bare host:port as http, and refuses what is no http(s) proxy URL without naming its value', () => {
    expect(at('https://gitlab.com/', { HTTPS_PROXY: 'proxy.corp:3128' })).toEqual(proxied('http://proxy.corp:3128/', 'HTTPS_PROXY'));
    expect(at('https://gitlab.com/', { HTTPS_PROXY: 'https://user:secret@proxy.corp' })).toEqual(proxied('https://user:secret@proxy.corp/', 'HTTPS_PROXY'));
    for (const bad of ['socks5://proxy:1080', 'http://', 'http://[bad', 'ftp://proxy']) {
      expect(at('https://gitlab.com/', { HTTPS_PROXY: bad })).toEqual({ _tag: 'InvalidProxy', variable: 'HTTPS_PROXY' });
    }
  });

  it.each([
    ['*', 'https://gitlab.com/', true],
    ['gitlab.com', 'https://gitlab.com/', true],
    ['gitlab.com', 'https://downloads.gitlab.com/', true],
    ['.gitlab.com', 'https://downloads.gitlab.com/', true],
    ['.gitlab.com', 'https://gitlab.com/', true],
    ['*.gitlab.com', 'https://a.b.gitlab.com/', true],
    ['gitlab.com', 'https://notgitlab.com/', false],
    ['gitlab.com', 'https://gitlab.com.evil.example/', false],
    ['GitLab.COM', 'https://gitlab.com/', true],
    ['gitlab.com.', 'https://gitlab.com/', true],
    ['gitlab.com:443', 'https://gitlab.com/', true],
    ['gitlab.com:8443', 'https://gitlab.com/', false],
    ['gitlab.com:8443', 'https://gitlab.com:8443/', true],
    ['gitlab.com:80', 'http://gitlab.com/', true],
    ['127.0.0.1', 'http://127.0.0.1:8080/', true],
    ['127.0.0.1:9', 'http://127.0.0.1:8080/', false],
    ['0.1', 'http://10.0.0.1/', false],
    ['::1', 'http://[::1]:8080/', true],
    ['[::1]', 'http://[::1]:8080/', true],
    ['[::1]:8080', 'http://[::1]:8080/', true],
    ['[::1]:9', 'http://[::1]:8080/', false],
    ['localhost, example.org  gitlab.com', 'https://gitlab.com/', true],
    ['localhost,,example.org', 'https://gitlab.com/', false],
    ['', 'https://gitlab.com/', false],
    ['gitlab.com:https', 'https://gitlab.com/', false],
  ])('NO_PROXY=%j, %s → direct: %s', (noProxy, url, bypassed) => {
    expect(at(url, { HTTPS_PROXY: 'http://proxy:3128', HTTP_PROXY: 'http://proxy:3128', NO_PROXY: noProxy })._tag).toBe(bypassed ? 'Direct' : 'Proxy');
  });

  it('prefers no_proxy to NO_PROXY', () => {
    expect(at('https://gitlab.com/', { HTTPS_PROXY: 'http://proxy:1', no_proxy: 'other.example', NO_PROXY: 'gitlab.com' })._tag).toBe('Proxy');
    expect(at('https://gitlab.com/', { HTTPS_PROXY: 'http://proxy:1', no_proxy: 'gitlab.com', NO_PROXY: 'other.example' })._tag).toBe('Direct');
  });

  it('goes direct whenever no proxy variable of its scheme is set', () => {
    fc.assert(
      fc.property(scheme, hostname, fc.dictionary(fc.constantFrom('no_proxy', 'NO_PROXY', 'ALL_PROXY', 'FTP_PROXY'), fc.string()), (s, host, env) => {
        expect(at(`${s}://${host}/x`, env)).toEqual(direct);
      }),
    );
  });

  it('a listed host, a listed domain above it, or * goes direct; a host that only ends with the same letters does not', () => {
    fc.assert(
      fc.property(scheme, hostname, label, fc.array(hostname, { maxLength: 3 }), fc.constantFrom(', ', ',', ' '), (s, host, prefix, others, separator) => {
        const env = (noProxy: string) => ({ HTTPS_PROXY: 'http://proxy:1', HTTP_PROXY: 'http://proxy:1', NO_PROXY: noProxy });
        const list = (entry: string) => [...others.filter((other) => other !== host && !host.endsWith(`.${other}`) && !`${prefix}${host}`.endsWith(`.${other}`)), entry].join(separator);
        expect(at(`${s}://${host}/`, env(list(host)))).toEqual(direct);
        expect(at(`${s}://${prefix}.${host}/`, env(list(`.${host}`)))).toEqual(direct);
        expect(at(`${s}://${prefix}.${host}/`, env(list(host.toUpperCase())))).toEqual(direct);
        expect(at(`${s}://${host}/`, env('*'))).toEqual(direct);
        expect(at(`${s}://${prefix}${host}/`, env(list(host)))._tag).toBe('Proxy');
      }),
    );
  });

  it('a port in an entry limits it to that port', () => {
    fc.assert(
      fc.property(hostname, port, port, (host, listed, used) => {
        const bypassed = bypassesProxy(`${host}:${listed}`, host, used);
        expect(bypassed).toBe(listed === used);
      }),
    );
  });

  it('an address matches only itself', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), fc.tuple(octet, octet, octet, octet), (a, b) => {
        expect(bypassesProxy(a.join('.'), b.join('.'), '80')).toBe(a.join('.') === b.join('.'));
        expect(bypassesProxy(a.slice(1).join('.'), a.join('.'), '80')).toBe(false);
      }),
    );
  });

  it('never throws on arbitrary settings', () => {
    fc.assert(
      fc.property(scheme, hostname, fc.dictionary(fc.constantFrom('https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'), fc.string({ unit: 'binary' })), (s, host, env) => {
        const decision = at(`${s}://${host}/`, env);
        expect(['Direct', 'Proxy', 'InvalidProxy']).toContain(decision._tag);
        if (decision._tag === 'Proxy') expect(['http:', 'https:']).toContain(new URL(decision.proxy).protocol);
      }),
    );
  });
});
