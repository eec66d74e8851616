/**
 * Which proxy a download goes through, from the conventional environment variables, decided as curl
 * and undici decide it:
 *
 * - `https://` URLs use `https_proxy`, else `HTTPS_PROXY`, else the `http://` proxy; `http://` URLs use
 *   `http_proxy`, else `HTTP_PROXY`. The lower-case name wins; an empty value is unset.
 * - `no_proxy`, else `NO_PROXY`, lists hosts that are reached directly, separated by commas or spaces:
 *   `*` (every host); `example.com` (that host and every host below it); `.example.com` or
 *   `*.example.com` (the same); `example.com:8443` (only that port, the scheme's default port when the
 *   URL names none); IPv4 and IPv6 addresses (`10.1.2.3`, `::1`, `[::1]:8080`), matched exactly.
 * - A proxy value without a scheme is `http://`; one that is not an `http:` or `https:` URL is refused
 *   rather than ignored, so a download never goes around a proxy the device was told to use.
 *
 * Every function is pure: a URL and the variables in, a decision out. Decisions and errors name the
 * variable, never its value (a proxy URL can carry a password).
 */

/** The environment variables read (any others are ignored). */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/** How a URL is reached. */
export type ProxyDecision =
  /** Directly: no proxy is set for its scheme, or `NO_PROXY` lists its host. */
  | { readonly _tag: 'Direct' }
  /** Through the proxy at `proxy` (an `http:` or `https:` URL), set by `variable`. */
  | { readonly _tag: 'Proxy'; readonly proxy: string; readonly variable: string }
  /** `variable` is set to something that is no usable proxy URL. */
  | { readonly _tag: 'InvalidProxy'; readonly variable: string };

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

const valueOf = (env: ProxyEnvironment, names: ReadonlyArray<string>): { readonly name: string; readonly value: string } | undefined => {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return { name, value };
  }
  return undefined;
};

/** A host as compared: lower case, without IPv6 brackets or a trailing dot. */
const canonicalHost = (host: string): string => host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');

/** One `NO_PROXY` entry: a host (or domain suffix) and optionally a port. */
interface NoProxyEntry {
  readonly host: string;
  readonly port: string | undefined;
}

const parseEntry = (entry: string): NoProxyEntry | undefined => {
  let host = entry;
  let port: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed?.[1] !== undefined) {
    host = bracketed[1];
    port = bracketed[2];
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    // `host:port`; an address with more colons is a bare IPv6 address.
    const at = entry.lastIndexOf(':');
    if (!/^\d+$/.test(entry.slice(at + 1))) return undefined;
    host = entry.slice(0, at);
    port = entry.slice(at + 1);
  }
  host = canonicalHost(host.replace(/^\*?\./, ''));
  return host === '' ? undefined : { host, port };
};

/**
 * Whether `NO_PROXY`'s value `noProxy` sends the host and port of a URL directly.
 *
 * @example
 * ```ts
 * bypassesProxy('localhost,.corp.example,10.0.0.1', 'build.corp.example', '443'); // true
 * bypassesProxy('corp.example:8443', 'corp.example', '443'); // false
 * ```
 */
export function bypassesProxy(noProxy: string, hostname: string, port: string): boolean {
  const host = canonicalHost(hostname);
  // An address matches only itself: `0.1` does not cover `10.0.0.1`.
  const address = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(':');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry === '*') return true;
    const parsed = parseEntry(entry);
    if (parsed === undefined) continue;
    if (parsed.port !== undefined && parsed.port !== port) continue;
    if (host === parsed.host || (!address && host.endsWith(`.${parsed.host}`))) return true;
  }
  return false;
}

const proxyUrl = (value: string): string | undefined => {
  const withScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) ? value : `http://${value}`;
  try {
    const url = new URL(withScheme);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url.href : undefined;
  } catch {
    return undefined;
  }
};

/**
 * How `url` is reached under the proxy variables of `env`.
 *
 * @example
 * ```ts
 * proxyFor(new URL('https://gitlab.com/x'), { HTTPS_PROXY: 'proxy.corp:3128' }); // { _tag: 'Proxy', proxy: 'http://proxy.corp:3128/', variable: 'HTTPS_PROXY' }
 * proxyFor(new URL('https://gitlab.com/x'), { HTTPS_PROXY: 'proxy.corp:3128', NO_PROXY: '.gitlab.com' }); // { _tag: 'Direct' }
 * ```
 */
export function proxyFor(url: URL, env: ProxyEnvironment): ProxyDecision {
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : url.protocol === 'http:' ? ['http_proxy', 'HTTP_PROXY'] : [];
  const set = valueOf(env, names);
  if (set === undefined) return { _tag: 'Direct' };
  const noProxy = valueOf(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy !== undefined && bypassesProxy(noProxy.value, url.hostname, url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? '') : url.port)) return { _tag: 'Direct' };
  const proxy = proxyUrl(set.value);
  return proxy === undefined ? { _tag: 'InvalidProxy', variable: set.name } : { _tag: 'Proxy', proxy, variable: set.name };
}
