/**
 * The `connectors[].localAuth` section of a plugin manifest, decoded with io-ts. Every function is pure:
 * JSON in, validated connectors or the problems that name connector and field out.
 *
 * ```json
 * { "connectors": [{
 *     "slug": "dingtalk",
 *     "localAuth": {
 *       "type": "local_qr",
 *       "authPolicy": "on_install",
 *       "health": ["bin/auth-bridge.mjs", "health"],
 *       "start": ["bin/auth-bridge.mjs", "start"],
 *       "poll": ["bin/auth-bridge.mjs", "poll"],
 *       "tool": { "source": "bundled", "sidecar": "dws" } } }] }
 * ```
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { expectedTypeName, issuePath } from '@wework/decode-issues';
import type { BridgeCommand } from './Command.js';
import { commandProblemText, parseCommand } from './Command.js';

/** When Wework checks a connector's login on its own. */
export const AuthPolicy = t.keyof({ on_install: null, on_first_use: null, manual: null }, 'AuthPolicy');
/**
 * - `on_install`: checked after the package is synchronised to a device; cancelling or failing aborts the install.
 * - `on_first_use`: not checked at install; a `connector_auth_required` at runtime opens the login at once.
 * - `manual`: never opened by Wework on its own; a runtime `connector_auth_required` only offers the login card.
 *
 * First-use and mid-run detection stay recovery paths for expired credentials under every policy.
 */
export type AuthPolicy = t.TypeOf<typeof AuthPolicy>;

/** Operating systems a managed artifact can target (Node's `process.platform`, with `win32` as `windows`). */
export const ToolOs = t.keyof({ darwin: null, linux: null, windows: null }, 'ToolOs');
/** See {@link ToolOs}. */
export type ToolOs = t.TypeOf<typeof ToolOs>;
/** CPU architectures a managed artifact can target (Node's `process.arch`). */
export const ToolArch = t.keyof({ x64: null, arm64: null }, 'ToolArch');
/** See {@link ToolArch}. */
export type ToolArch = t.TypeOf<typeof ToolArch>;

const pattern = (name: string, regex: RegExp, what: string) =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && regex.test(u),
    (u, c) => (typeof u === 'string' && regex.test(u) ? t.success(u) : t.failure(u, c, `must be ${what}`)),
    t.identity,
  );

/** A connector slug or tool name: letters, digits, `.`, `_`, `-`, at most 64 characters. */
export const Slug = pattern('Slug', /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a name of letters, digits, ".", "_" or "-" (at most 64)');
/** A tool version such as `1.46.0`. */
export const ToolVersion = pattern('ToolVersion', /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$/, 'a version of letters, digits, ".", "+", "_" or "-"');
/** A lowercase or uppercase hex SHA-256 digest, 64 characters. */
export const Sha256Hex = pattern('Sha256Hex', /^[0-9a-fA-F]{64}$/, 'a SHA-256 digest of 64 hex digits');

/** A bridge command: an argv array or a whitespace-separated string, validated by {@link parseCommand}. */
export const Command = new t.Type<BridgeCommand, readonly string[], unknown>(
  'Command',
  (u): u is BridgeCommand => typeof u === 'object' && u !== null && 'program' in u && 'args' in u,
  (u, c) => {
    const parsed = parseCommand(u);
    if (E.isRight(parsed)) return t.success(parsed.right);
    const where = parsed.left.index === undefined ? '' : parsed.left.index === 0 ? ' (program)' : ` (argument ${parsed.left.index})`;
    return t.failure(u, c, `${commandProblemText[parsed.left.problem]}${where}`);
  },
  (command) => [command.program, ...command.args],
);

/**
 * How a managed artifact is packed: `binary`, the download is the executable; `tar.gz` (Linux and macOS
 * releases) or `zip` (Windows releases), the executable is one entry of the archive.
 */
export const ArtifactFormat = t.keyof({ binary: null, 'tar.gz': null, zip: null });
/** See {@link ArtifactFormat}. */
export type ArtifactFormat = t.TypeOf<typeof ArtifactFormat>;

/**
 * Whether `path` is a plain relative path inside an archive: `/`-separated segments, none empty, `.` or
 * `..`, no backslash, colon (drive letters) or NUL, at most 1 024 characters.
 *
 * @example
 * ```ts
 * isArchiveEntryPath('bin/glab'); // true
 * isArchiveEntryPath('../bin/sh'); // false
 * isArchiveEntryPath('C:/glab.exe'); // false
 * ```
 */
export const isArchiveEntryPath = (path: string): boolean =>
  path.length > 0 && path.length <= 1024 && !/[\\:\0]/.test(path) && path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');

/** The path of the executable inside an archive artifact, checked by {@link isArchiveEntryPath}. */
export const ArchiveEntryPath = new t.Type<string, string, unknown>(
  'ArchiveEntryPath',
  (u): u is string => typeof u === 'string' && isArchiveEntryPath(u),
  (u, c) =>
    typeof u === 'string' && isArchiveEntryPath(u)
      ? t.success(u)
      : t.failure(u, c, 'must be a relative path inside the archive ("/"-separated, without "..", "\\", ":" or an empty segment)'),
  t.identity,
);

/** One downloadable build of a managed tool. */
export const ToolArtifact = t.intersection(
  [
    t.type({ os: ToolOs, arch: ToolArch, url: t.string, sha256: Sha256Hex }),
    t.partial({
      /** `binary` (default), `tar.gz` or `zip`: see {@link ArtifactFormat}. */
      format: ArtifactFormat,
      /** Path of the executable inside a `tar.gz` or `zip` artifact. */
      path: ArchiveEntryPath,
    }),
  ],
  'ToolArtifact',
);
/** See {@link ToolArtifact}. */
export type ToolArtifact = t.TypeOf<typeof ToolArtifact>;

/** A sidecar shipped with the desktop client (DingTalk's `dws`). */
export const BundledTool = t.type({ source: t.literal('bundled'), sidecar: Slug }, 'BundledTool');
/** See {@link BundledTool}. */
export type BundledTool = t.TypeOf<typeof BundledTool>;
/** An immutable artifact per OS and CPU, verified and installed under the executor home (GitLab's `glab`). */
export const ManagedTool = t.type({ source: t.literal('managed'), name: Slug, version: ToolVersion, artifacts: t.array(ToolArtifact) }, 'ManagedTool');
/** See {@link ManagedTool}. */
export type ManagedTool = t.TypeOf<typeof ManagedTool>;
/** Where the CLI a bridge drives comes from. */
export const ToolSource = t.union([BundledTool, ManagedTool], 'ToolSource');
/** See {@link ToolSource}. */
export type ToolSource = t.TypeOf<typeof ToolSource>;

const LoginTimeoutSeconds = new t.Type<number, number, unknown>(
  'LoginTimeoutSeconds',
  (u): u is number => typeof u === 'number',
  (u, c) => (typeof u === 'number' && Number.isInteger(u) && u >= 10 && u <= 3600 ? t.success(u) : t.failure(u, c, 'must be a whole number of seconds from 10 to 3600')),
  t.identity,
);

const common = t.partial({
  authPolicy: AuthPolicy,
  logoutOnUninstall: t.boolean,
  logout: Command,
  tool: ToolSource,
  loginTimeoutSeconds: LoginTimeoutSeconds,
});

const RawLocalQr = t.intersection([t.type({ type: t.literal('local_qr'), health: Command, start: Command, poll: Command }), common]);
const RawBrowserOAuth = t.intersection([t.type({ type: t.literal('browser_oauth'), health: Command, start: Command }), common]);

/** Settings both modes share, with defaults applied. */
interface LocalAuthCommon {
  readonly authPolicy: AuthPolicy;
  /** Default `true` for QR, `false` for browser OAuth (its credentials may be shared with other plugins). */
  readonly logoutOnUninstall: boolean;
  readonly health: BridgeCommand;
  readonly start: BridgeCommand;
  readonly logout: BridgeCommand | undefined;
  readonly tool: ToolSource | undefined;
  /** Timeout of the interactive login, in milliseconds (default {@link DEFAULT_LOGIN_TIMEOUT_MS}). */
  readonly loginTimeoutMs: number;
}

/** QR login: `start` prints a QR payload, `poll` is run repeatedly and must not block. */
export interface LocalQrAuth extends LocalAuthCommon {
  readonly type: 'local_qr';
  readonly poll: BridgeCommand;
}

/** Browser OAuth: `start` opens the browser and prints its status once the flow has finished. */
export interface BrowserOAuthAuth extends LocalAuthCommon {
  readonly type: 'browser_oauth';
}

/** A connector's decoded `localAuth`. */
export type LocalAuth = LocalQrAuth | BrowserOAuthAuth;

/** A connector that declares device-side authorization. */
export interface ConnectorLocalAuth {
  readonly slug: string;
  readonly localAuth: LocalAuth;
}

/** Default interactive login timeout: five minutes. */
export const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

/** One thing wrong with a manifest: which connector, which field, what. */
export interface ManifestProblem {
  /** The connector's slug, or `connectors[<index>]` when it has none. */
  readonly connector: string;
  /** Dotted path below the connector, such as `localAuth.start`. */
  readonly field: string;
  readonly message: string;
}

/** The manifest's `localAuth` sections could not be accepted. */
export interface InvalidLocalAuth {
  readonly _tag: 'InvalidLocalAuth';
  readonly problems: readonly ManifestProblem[];
  /** All problems as one line each: `connector "dingtalk", field localAuth.start: must be ...`. */
  readonly message: string;
}

const describe = (problem: ManifestProblem): string => `connector "${problem.connector}", field ${problem.field}: ${problem.message}`;

const invalid = (problems: readonly ManifestProblem[]): InvalidLocalAuth => ({
  _tag: 'InvalidLocalAuth',
  problems,
  message: problems.map(describe).join('\n'),
});

const connectorName = (raw: unknown, index: number): string => {
  const slug = typeof raw === 'object' && raw !== null ? (raw as { slug?: unknown }).slug : undefined;
  return typeof slug === 'string' && Slug.is(slug) ? slug : `connectors[${index}]`;
};

// Members of intersections and unions are not fields.
const fieldOf = (context: t.Context): string => issuePath(context, { root: 'localAuth', indices: 'brackets', members: 'skipUnionsAndIntersections' });

const messageOf = (error: t.ValidationError): string => {
  if (error.value === undefined) return 'is required';
  if (error.message !== undefined) return error.message;
  return `must be ${expectedTypeName(error) ?? 'valid'}`;
};

const decodeOne = (raw: unknown, connector: string): E.Either<ManifestProblem[], LocalAuth> => {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  const codec = type === 'local_qr' ? RawLocalQr : type === 'browser_oauth' ? RawBrowserOAuth : undefined;
  if (codec === undefined) return E.left([{ connector, field: 'localAuth.type', message: 'must be "local_qr" or "browser_oauth"' }]);
  const decoded = codec.decode(raw);
  if (E.isLeft(decoded)) {
    const seen = new Set<string>();
    const problems: ManifestProblem[] = [];
    for (const error of decoded.left) {
      const problem = { connector, field: fieldOf(error.context), message: messageOf(error) };
      const key = `${problem.field}\u0000${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
    }
    return E.left(problems);
  }
  const value = decoded.right;
  const base = {
    authPolicy: value.authPolicy ?? 'on_first_use',
    health: value.health,
    start: value.start,
    logout: value.logout,
    tool: value.tool,
    loginTimeoutMs: value.loginTimeoutSeconds === undefined ? DEFAULT_LOGIN_TIMEOUT_MS : value.loginTimeoutSeconds * 1000,
  };
  return E.right(
    value.type === 'local_qr'
      ? { ...base, type: 'local_qr', poll: value.poll, logoutOnUninstall: value.logoutOnUninstall ?? true }
      : { ...base, type: 'browser_oauth', logoutOnUninstall: value.logoutOnUninstall ?? false },
  );
};

/**
 * Decodes the connectors of a plugin manifest that declare `localAuth`; connectors without it are
 * skipped. Never throws.
 *
 * @example
 * ```ts
 * const connectors = decodeLocalAuthConnectors(JSON.parse(manifestText));
 * if (E.isLeft(connectors)) console.error(connectors.left.message);
 * // connector "dingtalk", field localAuth.start: must stay inside the plugin root ("..." is not allowed) (program)
 * ```
 */
export function decodeLocalAuthConnectors(manifest: unknown): E.Either<InvalidLocalAuth, readonly ConnectorLocalAuth[]> {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    return E.left(invalid([{ connector: '(manifest)', field: '(root)', message: 'must be a JSON object' }]));
  }
  const connectors = (manifest as { connectors?: unknown }).connectors;
  if (connectors === undefined) return E.right([]);
  if (!Array.isArray(connectors)) return E.left(invalid([{ connector: '(manifest)', field: 'connectors', message: 'must be an array' }]));
  const problems: ManifestProblem[] = [];
  const decoded: ConnectorLocalAuth[] = [];
  const slugs = new Set<string>();
  for (const [index, raw] of connectors.entries()) {
    if (typeof raw !== 'object' || raw === null || !('localAuth' in raw)) continue;
    const connector = connectorName(raw, index);
    const slug = (raw as { slug?: unknown }).slug;
    if (!Slug.is(slug)) {
      problems.push({ connector, field: 'slug', message: 'is required with localAuth and must be a name of letters, digits, ".", "_" or "-"' });
      continue;
    }
    if (slugs.has(slug)) {
      problems.push({ connector, field: 'slug', message: 'is declared twice' });
      continue;
    }
    slugs.add(slug);
    const localAuth = decodeOne((raw as { localAuth: unknown }).localAuth, connector);
    if (E.isLeft(localAuth)) problems.push(...localAuth.left);
    else decoded.push({ slug, localAuth: localAuth.right });
  }
  return problems.length > 0 ? E.left(invalid(problems)) : E.right(decoded);
}

/** What a policy asks of Wework: a check at install, and what a runtime `connector_auth_required` does. */
export interface PolicyTriggers {
  readonly checkAtInstall: boolean;
  /** `open`: start the login at once; `offer`: show the card and wait for the person. */
  readonly onAuthRequired: 'open' | 'offer';
}

/**
 * The triggers of an {@link AuthPolicy}.
 *
 * @example
 * ```ts
 * policyTriggers('on_install'); // { checkAtInstall: true, onAuthRequired: 'open' }
 * ```
 */
export function policyTriggers(policy: AuthPolicy): PolicyTriggers {
  switch (policy) {
    case 'on_install':
      return { checkAtInstall: true, onAuthRequired: 'open' };
    case 'on_first_use':
      return { checkAtInstall: false, onAuthRequired: 'open' };
    case 'manual':
      return { checkAtInstall: false, onAuthRequired: 'offer' };
  }
}
