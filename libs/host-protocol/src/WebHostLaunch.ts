/**
 * How a browser host is launched: the executor (`serve.js --ws --ui`) prints one address, the page on
 * its loopback port with the launch token (and the default workspace for new tasks) in the URL
 * fragment. A browser never sends the fragment in a request, so the token never reaches a request
 * line or a server log; the page reads it back and offers it as its WebSocket subprotocol.
 *
 * Every function here is pure.
 */

/** What a browser host is launched with. */
export interface WebHostLaunch {
  /** The executor's launch token (64 hex digits). */
  readonly token: string;
  /** The workspace new tasks run in (the executor's default workspace). */
  readonly workspace: string;
}

const TOKEN = /^[0-9a-f]{64}$/;

/** The URL fragment of a launch (with its `#`). */
export const webHostFragment = (launch: WebHostLaunch): string => `#token=${encodeURIComponent(launch.token)}&workspace=${encodeURIComponent(launch.workspace)}`;

/**
 * The address of the web host served on `port` of 127.0.0.1.
 * @example
 * ```ts
 * webHostUrl(4000, { token: 'ab…', workspace: '/home/ada/project' }); // 'http://127.0.0.1:4000/#token=ab…&workspace=%2Fhome%2Fada%2Fproject'
 * ```
 */
export const webHostUrl = (port: number, launch: WebHostLaunch): string => `http://127.0.0.1:${port}/${webHostFragment(launch)}`;

/**
 * Reads a launch from a URL fragment (with or without its `#`); `null` when the token is missing or
 * not 64 lower-case hex digits. An absent workspace reads as `''`.
 * @example
 * ```ts
 * readWebHostLaunch(webHostFragment(launch)); // launch
 * ```
 */
export function readWebHostLaunch(fragment: string): WebHostLaunch | null {
  const params = new Map<string, string>();
  for (const part of (fragment.startsWith('#') ? fragment.slice(1) : fragment).split('&')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq);
    if (params.has(key)) continue;
    try {
      params.set(key, decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' ')));
    } catch {
      // A malformed escape: that parameter is absent.
    }
  }
  const token = params.get('token');
  if (token === undefined || !TOKEN.test(token)) return null;
  return { token, workspace: params.get('workspace') ?? '' };
}
