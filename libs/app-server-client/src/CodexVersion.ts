/**
 * Which Codex the client talks to, and whether this library supports it: the version is read from the
 * `userAgent` that `initialize` answers (`<originator>/<codex version> (<os>; <arch>) …`), and compared
 * with the range the protocol types and codecs were generated and tested against.
 *
 * Every function here is pure: strings in, values out.
 */

/** A range of Codex versions: `minimum` included, `below` excluded. */
export interface CodexVersionRange {
  readonly minimum: string;
  readonly below: string;
}

/**
 * The Codex versions this library supports: the release its protocol was generated from (0.171.0) and its
 * patch releases. A newer minor release may still work (unknown values decode as unknown, see
 * `@wework/codex-protocol`), but it is untested.
 */
export const SUPPORTED_CODEX_VERSIONS: CodexVersionRange = { minimum: '0.171.0', below: '0.172.0' };

/** How the Codex found compares with a range. */
export type CodexVersionCheck =
  | { readonly _tag: 'Supported'; readonly version: string }
  | { readonly _tag: 'Unsupported'; readonly version: string; readonly supported: CodexVersionRange }
  /** The user agent carries no version this library can read. */
  | { readonly _tag: 'Unknown' };

const VERSION = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?$/;

/**
 * The Codex version in an `initialize` user agent, or `null`.
 *
 * @example
 * ```ts
 * codexVersionOf('wework_app_server_client/0.171.0 (Debian 12.0.0; x86_64) xterm-256color'); // '0.171.0'
 * codexVersionOf('curl/8.5.0 but not codex'); // '8.5.0' — the first name/version pair, whatever its name
 * codexVersionOf('no version here'); // null
 * ```
 */
export function codexVersionOf(userAgent: string): string | null {
  const match = /^[^/\s]{1,128}\/(\S{1,96})/.exec(userAgent);
  const version = match?.[1];
  return version !== undefined && VERSION.test(version) ? version : null;
}

/**
 * Compares two versions (`major.minor.patch`, an optional `-prerelease` below its release, prereleases
 * compared as text); `NaN` when either is not a version.
 */
export function compareCodexVersions(a: string, b: string): number {
  const left = VERSION.exec(a);
  const right = VERSION.exec(b);
  if (left === null || right === null) return Number.NaN;
  for (let part = 1; part <= 3; part++) {
    const difference = Number(left[part]) - Number(right[part]);
    if (difference !== 0) return Math.sign(difference);
  }
  const [pa, pb] = [left[4], right[4]];
  if (pa === pb) return 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  return pa < pb ? -1 : 1;
}

/**
 * Whether the Codex behind `userAgent` is in `range` ({@link SUPPORTED_CODEX_VERSIONS} by default).
 *
 * @example
 * ```ts
 * checkCodexVersion('wework_app_server_client/0.171.0 (Linux; x86_64)'); // { _tag: 'Supported', version: '0.171.0' }
 * checkCodexVersion('wework_app_server_client/0.169.0 (Linux; x86_64)'); // { _tag: 'Unsupported', version: '0.169.0', supported: … }
 * ```
 */
export function checkCodexVersion(userAgent: string, range: CodexVersionRange = SUPPORTED_CODEX_VERSIONS): CodexVersionCheck {
  const version = codexVersionOf(userAgent);
  if (version === null) return { _tag: 'Unknown' };
  const inRange = compareCodexVersions(version, range.minimum) >= 0 && compareCodexVersions(version, range.below) < 0;
  return inRange ? { _tag: 'Supported', version } : { _tag: 'Unsupported', version, supported: range };
}

/** A sentence for a person: `Codex 0.169.0 is outside the versions this executor supports (0.171.0 up to 0.172.0, not included)`. */
export function describeCodexVersionCheck(check: CodexVersionCheck): string {
  switch (check._tag) {
    case 'Supported':
      return `Codex ${check.version} is supported`;
    case 'Unsupported':
      return `Codex ${check.version} is outside the supported versions (${check.supported.minimum} up to ${check.supported.below}, not included)`;
    case 'Unknown':
      return 'the Codex version could not be read from its user agent';
  }
}
