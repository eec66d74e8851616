/**
 * Installs managed tools under the executor home, atomically: download into a private staging
 * directory → verify the declared SHA-256 → extract (`tar.gz` or `zip`, bounded) → chmod → write a
 * receipt → rename the whole directory into place (retried on Windows while a scanner holds a file).
 * The final directory exists only complete, so an interrupted install leaves nothing usable behind
 * (staging leftovers are swept later). One installation per tool, version and
 * artifact is shared by every plugin that declares it.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { renameWithRetry, type RetryOptions } from '@wework/ports/node';
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
  readonly log?: AuthLogger;
}

/** Installs (once) and resolves managed tools. */
export interface ManagedToolInstaller {
  /** The absolute path of the tool's executable, installing it first if needed. Never rejects. */
  ensure(tool: ManagedTool, signal?: AbortSignal): Promise<E.Either<ToolError, string>>;
}

const sha256File = async (path: string): Promise<string> => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
};

const exists = async (path: string): Promise<boolean> => {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
};

interface Receipt {
  readonly name: string;
  readonly version: string;
  readonly url: string;
  readonly sha256: string;
  readonly executable: string;
  readonly executableSha256: string;
}

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
  const staging = join(options.executorHome, 'tools', '.staging');
  const archiveLimits: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.archiveLimits };
  const rename = (from: string, to: string): Promise<void> =>
    renameWithRetry(from, to, options.renameRetry ?? { platform: (options.platform ?? currentPlatform())?.os === 'windows' ? 'windows' : 'unix' });
  const inflight = new Map<string, Promise<E.Either<ToolError, string>>>();
  /** Installations verified by this process (hash of the executable matches the receipt). */
  const verified = new Set<string>();

  const sweepStaging = async (): Promise<void> => {
    try {
      const now = Date.now();
      for (const name of await readdir(staging)) {
        const path = join(staging, name);
        const info = await stat(path).catch(() => undefined);
        if (info !== undefined && now - info.mtimeMs >= (options.staleStagingMs ?? 3_600_000)) await rm(path, { recursive: true, force: true });
      }
    } catch {
      // Nothing to sweep.
    }
  };

  /** A complete installation: the receipt is there and (once per process) the executable's hash matches it. */
  const installed = async (directory: string, executable: string, sha256: string): Promise<boolean> => {
    const path = join(directory, executable);
    if (verified.has(path)) return exists(path);
    try {
      const receipt = JSON.parse(await readFile(join(directory, 'receipt.json'), 'utf8')) as Receipt;
      if (receipt.sha256 !== sha256 || receipt.executable !== executable) return false;
      if ((await sha256File(path)) !== receipt.executableSha256) return false;
      verified.add(path);
      return true;
    } catch {
      return false;
    }
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
    // A damaged installation (its executable no longer matches the receipt) is replaced.
    if (await exists(finalDirectory)) {
      log({ event: 'tool.reinstall', detail: tool.name });
      await rm(finalDirectory, { recursive: true, force: true });
    }

    await sweepStaging();
    await mkdir(staging, { recursive: true });
    const work = await mkdtemp(join(staging, `${tool.name}-`));
    const fail = async (error: ToolError): Promise<E.Either<ToolError, string>> => {
      await rm(work, { recursive: true, force: true });
      log({ event: 'tool.install_failed', detail: `${tool.name} ${error._tag}` });
      return E.left(error);
    };
    try {
      const download = join(work, 'download');
      log({ event: 'tool.download', detail: `${tool.name} ${tool.version}` });
      const downloaded = await options.downloader.download(url, download, signal);
      if (E.isLeft(downloaded)) return fail({ _tag: 'DownloadFailed', tool: tool.name, url: artifact.url, message: `Downloading ${tool.name} ${tool.version} failed (${downloaded.left}).` });
      const actual = await sha256File(download);
      if (actual !== sha256) {
        return fail({ _tag: 'ChecksumMismatch', tool: tool.name, expected: sha256, actual, message: `The download of ${tool.name} ${tool.version} does not match its declared SHA-256.` });
      }
      const executable = join(work, location.executable);
      if (artifact.format === 'tar.gz' || artifact.format === 'zip') {
        const entryPath = artifact.path ?? '';
        const entry = await readArchiveEntry(artifact.format, new Uint8Array(await readFile(download)), entryPath, archiveLimits);
        if (E.isLeft(entry) && entry.left._tag === 'refused') {
          return fail({ _tag: 'ArchiveRefused', tool: tool.name, reason: entry.left.reason, message: `The archive of ${tool.name} ${tool.version} was refused (${entry.left.reason}).` });
        }
        if (E.isLeft(entry)) return fail({ _tag: 'ArchiveEntryMissing', tool: tool.name, path: entryPath, message: `The archive of ${tool.name} ${tool.version} has no ${entryPath}.` });
        await writeFile(executable, entry.right);
        await rm(download);
      } else {
        await rename(download, executable);
      }
      await chmod(executable, 0o755);
      const receipt: Receipt = { name: tool.name, version: tool.version, url: artifact.url, sha256, executable: location.executable, executableSha256: await sha256File(executable) };
      await writeFile(join(work, 'receipt.json'), `${JSON.stringify(receipt, null, 2)}\n`);
      if (signal?.aborted === true) return fail({ _tag: 'DownloadFailed', tool: tool.name, url: artifact.url, message: `Installing ${tool.name} ${tool.version} was cancelled.` });
      await mkdir(join(finalDirectory, '..'), { recursive: true });
      try {
        await rename(work, finalDirectory);
      } catch (error) {
        // Another installer (another process) finished first: use its installation.
        const code = (error as NodeJS.ErrnoException).code;
        if ((code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'EPERM') && (await installed(finalDirectory, location.executable, sha256))) {
          await rm(work, { recursive: true, force: true });
          return E.right(finalPath);
        }
        throw error;
      }
      verified.add(finalPath);
      log({ event: 'tool.installed', detail: `${tool.name} ${tool.version}` });
      return E.right(finalPath);
    } catch (error) {
      return fail({ _tag: 'InstallFailed', tool: tool.name, message: `Installing ${tool.name} ${tool.version} failed (${(error as NodeJS.ErrnoException).code ?? 'error'}).` });
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
