/**
 * Managed and bundled tools: which artifact fits this device, whether its URL is an allow-listed
 * official release, and where its one shared installation lives. Every function is pure; downloading,
 * hashing and renaming are done by the `./node` installer.
 */
import * as E from 'fp-ts/lib/Either.js';
import { isArchiveEntryPath, type ManagedTool, type ToolArch, type ToolArtifact, type ToolOs } from './LocalAuthManifest.js';

/** The device a tool is installed on. */
export interface Platform {
  readonly os: ToolOs;
  readonly arch: ToolArch;
}

/** One allow-listed place official releases are downloaded from. */
export interface ReleaseUrlRule {
  /** `protocol://host[:port]`, exactly as `URL.origin` gives it. */
  readonly origin: string;
  /** The URL's path must start with this (after the URL parser resolved dot segments). */
  readonly pathPrefix: string;
}

/** The default allow-list: official GitLab CLI releases only. */
export const OFFICIAL_RELEASE_URLS: readonly ReleaseUrlRule[] = [{ origin: 'https://gitlab.com', pathPrefix: '/gitlab-org/cli/-/releases/' }];

/** No artifact of the tool targets this OS and CPU. */
export interface NoArtifactForPlatform {
  readonly _tag: 'NoArtifactForPlatform';
  readonly tool: string;
  readonly platform: Platform;
  readonly message: string;
}
/** The artifact's URL is not an allow-listed official release URL. */
export interface ReleaseUrlNotAllowed {
  readonly _tag: 'ReleaseUrlNotAllowed';
  readonly tool: string;
  readonly url: string;
  readonly message: string;
}
/** The download's SHA-256 differs from the declared one; nothing was installed. */
export interface ChecksumMismatch {
  readonly _tag: 'ChecksumMismatch';
  readonly tool: string;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
}
/** The download failed or was interrupted; nothing was installed. */
export interface DownloadFailed {
  readonly _tag: 'DownloadFailed';
  readonly tool: string;
  readonly url: string;
  readonly message: string;
}
/** The `tar.gz` or `zip` artifact does not contain the declared executable, or declares no safe path to it. */
export interface ArchiveEntryMissing {
  readonly _tag: 'ArchiveEntryMissing';
  readonly tool: string;
  readonly path: string;
  readonly message: string;
}
/**
 * Why an archive was refused although its SHA-256 matched:
 * - `too_many_entries`, `entry_too_large`: past the installer's limits;
 * - `size_mismatch`: the entry inflates to more or fewer bytes than declared (a zip bomb stops here);
 * - `checksum_mismatch`: the entry's CRC-32 does not match;
 * - `duplicate_entry`: the declared path is listed twice;
 * - `unsupported`: encrypted, ZIP64, or a compression other than stored or deflate;
 * - `corrupt`: the structure does not hold together.
 */
export type ArchiveRefusalReason = 'too_many_entries' | 'entry_too_large' | 'size_mismatch' | 'checksum_mismatch' | 'duplicate_entry' | 'unsupported' | 'corrupt';
/** The archive was refused before anything of it was installed; see {@link ArchiveRefusalReason}. */
export interface ArchiveRefused {
  readonly _tag: 'ArchiveRefused';
  readonly tool: string;
  readonly reason: ArchiveRefusalReason;
  readonly message: string;
}
/** Writing the installation failed; nothing usable was left behind. */
export interface InstallFailed {
  readonly _tag: 'InstallFailed';
  readonly tool: string;
  readonly message: string;
}
/** The host ships no sidecar of that name. */
export interface SidecarNotFound {
  readonly _tag: 'SidecarNotFound';
  readonly tool: string;
  readonly message: string;
}

/** Why a connector's tool could not be made available. */
export type ToolError = NoArtifactForPlatform | ReleaseUrlNotAllowed | ChecksumMismatch | DownloadFailed | ArchiveEntryMissing | ArchiveRefused | InstallFailed | SidecarNotFound;

/** Whether the artifact is an archive the executable is extracted from (`tar.gz` or `zip`). */
export const isArchive = (artifact: ToolArtifact): boolean => artifact.format === 'tar.gz' || artifact.format === 'zip';

/**
 * The artifact of `tool` for `platform`: the first one declared for that OS and CPU.
 *
 * @example
 * ```ts
 * selectArtifact(glab, { os: 'darwin', arch: 'arm64' }); // Right({ os: 'darwin', arch: 'arm64', url, sha256, ... })
 * ```
 */
export function selectArtifact(tool: ManagedTool, platform: Platform): E.Either<NoArtifactForPlatform, ToolArtifact> {
  const artifact = tool.artifacts.find((candidate) => candidate.os === platform.os && candidate.arch === platform.arch);
  return artifact === undefined
    ? E.left({ _tag: 'NoArtifactForPlatform', tool: tool.name, platform, message: `${tool.name} ${tool.version} has no artifact for ${platform.os}/${platform.arch}.` })
    : E.right(artifact);
}

/**
 * Accepts `url` only if it parses, carries no user name or password, and lies below one of `rules`
 * (compared after the URL parser resolved `.`/`..` segments, so `.../releases/../../x` does not pass).
 *
 * @example
 * ```ts
 * checkReleaseUrl('glab', 'https://gitlab.com/gitlab-org/cli/-/releases/v1.46.0/downloads/glab_1.46.0_linux_amd64.tar.gz'); // Right(URL)
 * checkReleaseUrl('glab', 'https://gitlab.com.evil.example/gitlab-org/cli/-/releases/x'); // Left(ReleaseUrlNotAllowed)
 * ```
 */
export function checkReleaseUrl(tool: string, url: string, rules: readonly ReleaseUrlRule[] = OFFICIAL_RELEASE_URLS): E.Either<ReleaseUrlNotAllowed, URL> {
  const refuse = (): E.Either<ReleaseUrlNotAllowed, URL> =>
    E.left({ _tag: 'ReleaseUrlNotAllowed', tool, url, message: `The download URL of ${tool} is not an allow-listed official release URL.` });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse();
  }
  if (parsed.username !== '' || parsed.password !== '' || /%2f|%5c|\\/i.test(parsed.pathname)) return refuse();
  const allowed = rules.some((rule) => parsed.origin === rule.origin && parsed.pathname.startsWith(rule.pathPrefix));
  return allowed ? E.right(parsed) : refuse();
}

/** Where one managed installation lives, relative to the executor home. */
export interface ManagedInstallLocation {
  /** `tools/<name>/<version>-<first 12 hex digits of sha256>`: one per tool, version and artifact. */
  readonly directory: string;
  /** File name of the executable inside `directory`. */
  readonly executable: string;
}

/**
 * The shared location of an artifact's installation. Two plugins that declare the same tool, version
 * and artifact get the same location, so the tool is installed once.
 *
 * @example
 * ```ts
 * installLocation(glab, artifact); // { directory: 'tools/glab/1.46.0-0123456789ab', executable: 'glab' }
 * ```
 */
export function installLocation(tool: ManagedTool, artifact: ToolArtifact): ManagedInstallLocation {
  const base = isArchive(artifact) && artifact.path !== undefined ? (artifact.path.split('/').pop() ?? tool.name) : tool.name;
  const executable = artifact.os === 'windows' && !base.toLowerCase().endsWith('.exe') ? `${base}.exe` : base;
  return { directory: `tools/${tool.name}/${tool.version}-${artifact.sha256.toLowerCase().slice(0, 12)}`, executable };
}

/**
 * Checks what {@link installLocation} relies on before anything is downloaded: a `tar.gz` or `zip`
 * artifact names a plain relative path (no `..`, absolute path, drive letter or backslash), and the URL
 * is allow-listed.
 */
export function planManagedInstall(
  tool: ManagedTool,
  platform: Platform,
  rules: readonly ReleaseUrlRule[] = OFFICIAL_RELEASE_URLS,
): E.Either<ToolError, { readonly artifact: ToolArtifact; readonly url: URL; readonly location: ManagedInstallLocation }> {
  const artifact = selectArtifact(tool, platform);
  if (E.isLeft(artifact)) return artifact;
  const url = checkReleaseUrl(tool.name, artifact.right.url, rules);
  if (E.isLeft(url)) return url;
  if (isArchive(artifact.right)) {
    const path = artifact.right.path;
    if (path === undefined || !isArchiveEntryPath(path)) {
      return E.left({ _tag: 'ArchiveEntryMissing', tool: tool.name, path: path ?? '', message: `The ${artifact.right.format} artifact of ${tool.name} must name the executable's relative path.` });
    }
  }
  return E.right({ artifact: artifact.right, url: url.right, location: installLocation(tool, artifact.right) });
}
