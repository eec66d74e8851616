/**
 * Installs managed tools under the executor home, atomically: download into a private staging
 * directory → verify the declared SHA-256 → extract (`tar.gz` or `zip`, bounded) → write the executable
 * (0755) and a receipt → rename the whole directory into place (retried on Windows while a scanner holds
 * a file). The final directory exists only complete. All or nothing: when any step fails (a full disk,
 * an I/O error), what the install created — its staging directory, the directories above it, a moved
 * damaged installation — is put back, so the executor home is as it was. Every change goes through the
 * {@link FileSystemPort} (the Node one by default). One installation per tool, version and artifact is
 * shared by every plugin that declares it.
 */
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nodeFileSystem, type RetryOptions } from '@wework/ports/node';
import { renameRetryFor, type FileSystemError, type FileSystemPort } from '@wework/ports';
import * as E from 'fp-ts/lib/Either.js';
import type { ManagedTool, ToolArch, ToolOs, ToolSource } from '../LocalAuthManifest.js';
import type { Platform, ReleaseUrlRule, ToolError } from '../ManagedTool.js';
import { OFFICIAL_RELEASE_URLS, planManagedInstall } from '../ManagedTool.js';
import type { AuthLogger, ToolResolver } from '../Ports.js';
import { DEFAULT_ARCHIVE_LIMITS, readArchiveEntry, type ArchiveLimits } from './ArchiveEntry.js';
import type { Downloader } from './Downloader.js';
import type { SidecarResolver } from './SidecarResolver.js';

/** The platform of this process, if managed tools exist for it. */
export function currentPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): Platform | undefined {
  const os: ToolOs | undefined = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu: ToolArch | undefined = arch === 'x64' ? 'x64' : arch === 'arm64' ? 'arm64' : undefined;
  return os === undefined || cpu === undefined ? undefined : { os, arch: cpu };
}

/** Options of {@link managedToolInstaller}. */
export interface ManagedToolInstallerOptions {
  /** The executor home; installations go to `<home>/tools/...`. */
  readonly executorHome: string;
  readonly downloader: Downloader;
  /** Default: this process's platform. */
  readonly platform?: Platform;
  /** Default {@link OFFICIAL_RELEASE_URLS}. */
  readonly allowList?: readonly ReleaseUrlRule[];
  /** Staging directories older than this are swept; default one hour. */
  readonly staleStagingMs?: number;
  /** Bounds of extracting an archive; default {@link DEFAULT_ARCHIVE_LIMITS}. */
  readonly archiveLimits?: Partial<ArchiveLimits>;
  /** How renames are retried; default: on Windows, while another program holds a file (see `renameWithRetry`). */
  readonly renameRetry?: RetryOptions;
  /** The file system every change goes through; default the Node one (with {@link renameRetry}). */
  readonly fs?: FileSystemPort;
  readonly log?: AuthLogger;
}

/** Installs (once) and resolves managed tools. */
export interface ManagedToolInstaller {
  /** The absolute path of the tool's executable, installing it first if needed. Never rejects. */
  ensure(tool: ManagedTool, signal?: AbortSignal): Promise<E.Either<ToolError, string>>;
}

interface Receipt {
  readonly name: string;
  readonly version: string;
  readonly url: string;
  readonly sha256: string;
  readonly executable: string;
  readonly executableSha256: string;
}

/** The most bytes of a download read back for extraction (the downloader bounds it before). */
const MAX_ARCHIVE_BYTES = Number.MAX_SAFE_INTEGER;

/** Thrown inside an install to stop at a failed step; carries the step's code only. */
class StepFailed extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** The value of a step, or a {@link StepFailed} thrown with its code. */
const step = async <A>(run: Promise<E.Either<FileSystemError, A>>): Promise<A> => {
  const done = await run;
  if (E.isLeft(done)) throw new StepFailed(done.left.code);
  return done.right;
};

/**
 * A {@link ManagedToolInstaller} writing under `executorHome`.
 *
 * @example
 * ```ts
 * const installer = managedToolInstaller({ executorHome, downloader: httpDownloader() });
 * const glab = await installer.ensure(tool); // Right('<home>/tools/glab/1.46.0-0123456789ab/glab')
 * ```
 */
export function managedToolInstaller(options: ManagedToolInstallerOptions): ManagedToolInstaller {
  const log = options.log ?? (() => undefined);
  const windows = (options.platform ?? currentPlatform())?.os === 'windows';
  const retry = options.renameRetry;
  const fs =
    options.fs ??
    nodeFileSystem({
      renameRetry: retry?.schedule ?? renameRetryFor(retry?.platform ?? (windows ? 'windows' : 'unix')),
      ...(retry?.sleep === undefined ? {} : { sleep: retry.sleep }),
    });
  const tools = join(options.executorHome, 'tools');
  const staging = join(tools, '.staging');
  const archiveLimits: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.archiveLimits };
  const inflight = new Map<string, Promise<E.Either<ToolError, string>>>();
  /** Installations verified by this process (hash of the executable matches the receipt). */
  const verified = new Set<string>();

  const exists = async (path: string): Promise<boolean> => {
    const found = await fs.lstat(path)();
    return E.isRight(found) && found.right !== null;
  };

  /** Sweeps staging directories a crash left behind (their age read from the disk; none on another port). */
  const sweepStaging = async (): Promise<void> => {
    const names = await fs.listDirectory(staging)();
    if (E.isLeft(names)) return;
    const now = Date.now();
    for (const name of names.right) {
      const path = join(staging, name);
      const info = await stat(path).catch(() => undefined);
      if (info !== undefined && now - info.mtimeMs >= (options.staleStagingMs ?? 3_600_000)) await fs.removeTree(path)();
    }
  };

  /** A complete installation: the receipt is there and (once per process) the executable's hash matches it. */
  const installed = async (directory: string, executable: string, sha256: string): Promise<boolean> => {
    const path = join(directory, executable);
    if (verified.has(path)) return exists(path);
    const bytes = await fs.readFile(join(directory, 'receipt.json'), { followSymlink: false })();
    if (E.isLeft(bytes)) return false;
    try {
      const receipt = JSON.parse(new TextDecoder().decode(bytes.right)) as Receipt;
      if (receipt.sha256 !== sha256 || receipt.executable !== executable) return false;
      const digest = await fs.digestFile(path)();
      if (E.isLeft(digest) || digest.right !== receipt.executableSha256) return false;
      verified.add(path);
      return true;
    } catch {
      return false;
    }
  };

  /** Creates `path` and its missing parents; answers the directories it created, outermost first (undone in reverse). */
  const makeDirectories = async (path: string): Promise<ReadonlyArray<string>> => {
    const missing: string[] = [];
    for (let at = path; !(await exists(at)); at = dirname(at)) {
      missing.push(at);
      if (dirname(at) === at) break;
    }
    await step(fs.makeDirectory(path, 0o755)());
    return missing.reverse();
  };

  const install = async (tool: ManagedTool, signal: AbortSignal | undefined): Promise<E.Either<ToolError, string>> => {
    const platform = options.platform ?? currentPlatform();
    if (platform === undefined) {
      return E.left({ _tag: 'NoArtifactForPlatform', tool: tool.name, platform: { os: 'linux', arch: 'x64' }, message: `Managed tools are not available on ${process.platform}/${process.arch}.` });
    }
    const plan = planManagedInstall(tool, platform, options.allowList ?? OFFICIAL_RELEASE_URLS);
    if (E.isLeft(plan)) return plan;
    const { artifact, url, location } = plan.right;
    const sha256 = artifact.sha256.toLowerCase();
    const finalDirectory = join(options.executorHome, ...location.directory.split('/'));
    const finalPath = join(finalDirectory, location.executable);
    if (await installed(finalDirectory, location.executable, sha256)) return E.right(finalPath);

    await sweepStaging();
    // What this install changed, undone in reverse order when a later step fails.
    const undo: Array<() => Promise<unknown>> = [];
    const rollBack = async (): Promise<void> => {
      for (const action of undo.reverse()) await action();
    };
    const fail = async (error: ToolError): Promise<E.Either<ToolError, string>> => {
      await rollBack();
      log({ event: 'tool.install_failed', detail: `${tool.name} ${error._tag}` });
      return E.left(error);
    };
    try {
      for (const directory of await makeDirectories(staging)) undo.push(() => fs.removeEmptyDirectory(directory)());
      const work = join(staging, `${tool.name}.tmp-${randomBytes(6).toString('hex')}`);
      await step(fs.createDirectory(work, 0o700)());
      undo.push(() => fs.removeTree(work)());
      const download = join(work, 'download');
      log({ event: 'tool.download', detail: `${tool.name} ${tool.version}` });
      const downloaded = await options.downloader.download(url, download, signal);
      if (E.isLeft(downloaded)) return fail({ _tag: 'DownloadFailed', tool: tool.name, url: artifact.url, message: `Downloading ${tool.name} ${tool.version} failed (${downloaded.left}).` });
      const actual = await step(fs.digestFile(download)());
      if (actual !== sha256) {
        return fail({ _tag: 'ChecksumMismatch', tool: tool.name, expected: sha256, actual, message: `The download of ${tool.name} ${tool.version} does not match its declared SHA-256.` });
      }
      const executable = join(work, location.executable);
      if (artifact.format === 'tar.gz' || artifact.format === 'zip') {
        const entryPath = artifact.path ?? '';
        const bytes = await step(fs.readFile(download, { followSymlink: false, maxBytes: MAX_ARCHIVE_BYTES })());
        const entry = await readArchiveEntry(artifact.format, bytes, entryPath, archiveLimits);
        if (E.isLeft(entry) && entry.left._tag === 'refused') {
          return fail({ _tag: 'ArchiveRefused', tool: tool.name, reason: entry.left.reason, message: `The archive of ${tool.name} ${tool.version} was refused (${entry.left.reason}).` });
        }
        if (E.isLeft(entry)) return fail({ _tag: 'ArchiveEntryMissing', tool: tool.name, path: entryPath, message: `The archive of ${tool.name} ${tool.version} has no ${entryPath}.` });
        await step(fs.writeFiles([{ path: executable, bytes: entry.right, mode: 0o755 }])());
        await step(fs.remove(download)());
      } else {
        await step(fs.rename(download, executable)());
        await step(fs.chmod(executable, 0o755)());
      }
      const receipt: Receipt = { name: tool.name, version: tool.version, url: artifact.url, sha256, executable: location.executable, executableSha256: await step(fs.digestFile(executable)()) };
      await step(fs.writeFiles([{ path: join(work, 'receipt.json'), bytes: new TextEncoder().encode(`${JSON.stringify(receipt, null, 2)}\n`), mode: 0o644 }])());
      if (signal?.aborted === true) return fail({ _tag: 'DownloadFailed', tool: tool.name, url: artifact.url, message: `Installing ${tool.name} ${tool.version} was cancelled.` });
      const parent = dirname(finalDirectory);
      for (const directory of await makeDirectories(parent)) undo.push(() => fs.removeEmptyDirectory(directory)());
      // A damaged installation (its executable no longer matches the receipt) is moved aside, and put back
      // should the new one fail to take its place.
      let aside: string | null = null;
      if (await exists(finalDirectory)) {
        log({ event: 'tool.reinstall', detail: tool.name });
        const moved = `${work}-replaced`;
        await step(fs.rename(finalDirectory, moved)());
        aside = moved;
        undo.push(() => fs.rename(moved, finalDirectory)());
      }
      const published = await fs.rename(work, finalDirectory)();
      if (E.isLeft(published)) {
        // Another installer (another process) finished first: use its installation.
        const { code } = published.left;
        if (aside === null && (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'EPERM' || code === 'EISDIR') && (await installed(finalDirectory, location.executable, sha256))) {
          await fs.removeTree(work)();
          return E.right(finalPath);
        }
        throw new StepFailed(code);
      }
      // Committed: what is left is cleaning up, which never turns the install into a failure.
      if (aside !== null && E.isLeft(await fs.removeTree(aside)())) await fs.removeTree(aside)();
      verified.add(finalPath);
      log({ event: 'tool.installed', detail: `${tool.name} ${tool.version}` });
      return E.right(finalPath);
    } catch (error) {
      const code = error instanceof StepFailed ? error.code : 'error';
      return fail({ _tag: 'InstallFailed', tool: tool.name, message: `Installing ${tool.name} ${tool.version} failed (${code}).` });
    }
  };

  return {
    ensure(tool, signal) {
      const key = JSON.stringify([tool.name, tool.version, tool.artifacts.map((artifact) => artifact.sha256.toLowerCase())]);
      const running = inflight.get(key);
      if (running !== undefined) return running;
      const started = install(tool, signal).finally(() => inflight.delete(key));
      inflight.set(key, started);
      return started;
    },
  };
}

/**
 * The {@link ToolResolver} of the executor: bundled tools from the client's sidecars, managed tools
 * through the installer.
 */
export function toolResolver(sidecars: SidecarResolver, managed: ManagedToolInstaller): ToolResolver {
  return {
    resolve: (tool: ToolSource, signal?: AbortSignal) => (tool.source === 'bundled' ? sidecars(tool.sidecar) : managed.ensure(tool, signal)),
  };
}
