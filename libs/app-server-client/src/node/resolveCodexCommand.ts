/**
 * Finds the `codex` executable of the installed `@openai/codex` package: the native binary of the
 * platform package (`@openai/codex-<os>-<cpu>`, under `vendor/<target-triple>/bin/`), with its
 * `codex-path/` helper directory to put on PATH, or else the package's npm wrapper script.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { CodexNotFound } from './SpawnError.js';

/** Where the native binary of one platform lives. */
export interface NativeBinaryLocation {
  /** The Rust target triple, the directory under `vendor/`. */
  readonly targetTriple: string;
  /** The npm package that carries the binary. */
  readonly packageName: string;
  /** The executable's file name. */
  readonly executable: string;
}

/** A resolved command line for `codex`, without the `app-server` argument. */
export interface CodexCommand {
  /** The program to run. */
  readonly command: string;
  /** Arguments before `app-server` (the wrapper script when running through Node). */
  readonly args: readonly string[];
  /** Directories to put in front of PATH. */
  readonly pathPrepend: readonly string[];
  /** How it was found: the installed package's native binary or wrapper, or a path the host gave. */
  readonly source: 'native' | 'wrapper' | 'given';
}

const TARGETS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  linux: { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' },
  android: { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' },
  darwin: { x64: 'x86_64-apple-darwin', arm64: 'aarch64-apple-darwin' },
  win32: { x64: 'x86_64-pc-windows-msvc', arm64: 'aarch64-pc-windows-msvc' },
};

const PACKAGE_OS: Readonly<Record<string, string>> = { linux: 'linux', android: 'linux', darwin: 'darwin', win32: 'win32' };

/**
 * The native binary's location for a platform and CPU, as the `@openai/codex` wrapper maps them, or
 * undefined for a platform Codex does not ship.
 *
 * @example
 * ```ts
 * nativeBinaryLocation('linux', 'x64');
 * // { targetTriple: 'x86_64-unknown-linux-musl', packageName: '@openai/codex-linux-x64', executable: 'codex' }
 * ```
 */
export function nativeBinaryLocation(platform: string, arch: string): NativeBinaryLocation | undefined {
  const targetTriple = TARGETS[platform]?.[arch];
  const os = PACKAGE_OS[platform];
  if (targetTriple === undefined || os === undefined) return undefined;
  return { targetTriple, packageName: `@openai/codex-${os}-${arch}`, executable: platform === 'win32' ? 'codex.exe' : 'codex' };
}

/** The `codex-package.json` manifest beside the native binary (only the field we use). */
const CodexPackageManifest = t.partial({ pathDir: t.string, entrypoint: t.string });

/** Options of {@link resolveCodexCommand}; the defaults describe this process. */
export interface ResolveCodexCommandOptions {
  readonly platform?: string;
  readonly arch?: string;
  /** Resolves `<package>/package.json` to a file path, or throws. Defaults to Node's resolution from here. */
  readonly resolvePackageJson?: (specifier: string, fromFile?: string) => string;
}

const defaultResolve = (specifier: string, fromFile?: string): string =>
  createRequire(fromFile ?? import.meta.url).resolve(specifier);

function readManifest(file: string): t.TypeOf<typeof CodexPackageManifest> {
  try {
    const decoded = CodexPackageManifest.decode(JSON.parse(readFileSync(file, 'utf8')));
    return E.isRight(decoded) ? decoded.right : {};
  } catch {
    return {};
  }
}

/**
 * Resolves the `codex` command from the installed `@openai/codex` package (an optional peer
 * dependency): its platform package's native binary first, then its Node wrapper script.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 * import { resolveCodexCommand } from '@wework/app-server-client/node';
 * const resolved = resolveCodexCommand();
 * if (E.isRight(resolved)) console.log(resolved.right.command);
 * ```
 */
export function resolveCodexCommand(options: ResolveCodexCommandOptions = {}): E.Either<CodexNotFound, CodexCommand> {
  const resolve = options.resolvePackageJson ?? defaultResolve;
  let codexPackageJson: string;
  try {
    codexPackageJson = resolve('@openai/codex/package.json');
  } catch {
    return E.left({ _tag: 'CodexNotFound', message: 'the @openai/codex package is not installed' });
  }
  const location = nativeBinaryLocation(options.platform ?? process.platform, options.arch ?? process.arch);
  if (location !== undefined) {
    try {
      const platformRoot = dirname(resolve(`${location.packageName}/package.json`, codexPackageJson));
      const vendor = join(platformRoot, 'vendor', location.targetTriple);
      const manifest = readManifest(join(vendor, 'codex-package.json'));
      const binary = manifest.entrypoint === undefined ? join(vendor, 'bin', location.executable) : join(vendor, manifest.entrypoint);
      const pathDir = join(vendor, manifest.pathDir ?? 'codex-path');
      if (existsSync(binary)) {
        return E.right({ command: binary, args: [], pathPrepend: existsSync(pathDir) ? [pathDir] : [], source: 'native' });
      }
    } catch {
      // Fall back to the wrapper below.
    }
  }
  const wrapper = join(dirname(codexPackageJson), 'bin', 'codex.js');
  if (!existsSync(wrapper)) {
    return E.left({ _tag: 'CodexNotFound', message: `neither the native binary nor ${wrapper} exists` });
  }
  return E.right({ command: process.execPath, args: [wrapper], pathPrepend: [], source: 'wrapper' });
}

/**
 * The command line of a Codex at `path`: a wrapper script (`.js`, `.mjs`, `.cjs`) runs with this Node, anything
 * else is run as the program itself.
 *
 * @example
 * ```ts
 * codexCommandAt('/opt/wework/codex'); // { command: '/opt/wework/codex', args: [], pathPrepend: [], source: 'given' }
 * ```
 */
export function codexCommandAt(path: string): CodexCommand {
  return /\.(?:c|m)?js$/i.test(path) ? { command: process.execPath, args: [path], pathPrepend: [], source: 'given' } : { command: path, args: [], pathPrepend: [], source: 'given' };
}
