/**
 * Where the Wework Codex home is and what lives in it, and the program that creates it.
 *
 * {@link resolveCodexHome} is a pure function of an explicit environment record: `WEGENT_CODEX_HOME`
 * wins, otherwise the `codex` child of the executor home. The user's native Codex home is
 * `<user home>/.codex`; Wework only ever reads it (see the README for the one exception, Switch).
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { isAbsolutePath, joinPath, normalizePath, PRIVATE_DIRECTORY_MODE, samePath, type FileSystemError, type FileSystemPort, type Platform } from '@wework/ports';

/** The environment variable that overrides the Wework Codex home. */
export const WEGENT_CODEX_HOME = 'WEGENT_CODEX_HOME';

/** Name of the Wework Codex home under the executor home. */
export const CODEX_HOME_DIRECTORY = 'codex';

/** Name of the directory, inside the Wework Codex home, holding saved account snapshots and their index. */
export const ACCOUNT_PROFILES_DIRECTORY = 'wework-account-profiles';

/** Name of the account index file inside {@link ACCOUNT_PROFILES_DIRECTORY}. */
export const ACCOUNT_INDEX_FILE = 'index.json';

/** Name of the file, inside the Wework Codex home, recording the first-start migration choice. */
export const HOME_STATE_FILE = 'wework-home.json';

/** Everything {@link resolveCodexHome} reads. */
export interface HomeEnvironment {
  /** Environment variables; only {@link WEGENT_CODEX_HOME} is read (an empty value counts as unset). */
  readonly variables: Readonly<Record<string, string | undefined>>;
  /** The executor home (absolute). */
  readonly executorHome: string;
  /** The user's home directory (absolute); the native Codex home is its `.codex` child. */
  readonly userHome: string;
  readonly platform: Platform;
}

/** The paths of the Wework Codex home and of the user's native Codex home. */
export interface CodexHomeLayout {
  readonly platform: Platform;
  /** The Wework Codex home: `CODEX_HOME` of the app-server Wework starts. */
  readonly home: string;
  /** Where {@link CodexHomeLayout.home} came from. */
  readonly source: 'WEGENT_CODEX_HOME' | 'executorHome';
  readonly authFile: string;
  readonly configFile: string;
  readonly stateFile: string;
  readonly profilesDirectory: string;
  readonly accountIndexFile: string;
  /** The user's native Codex home (`~/.codex`), read-only for Wework. */
  readonly nativeHome: string;
  readonly nativeAuthFile: string;
  readonly nativeConfigFile: string;
}

/** A path of the environment is not absolute. */
export interface InvalidHomePath {
  readonly _tag: 'InvalidHomePath';
  readonly source: 'WEGENT_CODEX_HOME' | 'executorHome' | 'userHome';
  readonly path: string;
}

/** The Wework Codex home would be the user's native Codex home, which Wework must not write. */
export interface HomeIsNativeHome {
  readonly _tag: 'HomeIsNativeHome';
  readonly path: string;
}

/** The Wework Codex home exists but is not a directory. */
export interface HomeNotADirectory {
  readonly _tag: 'HomeNotADirectory';
  readonly path: string;
}

/** Why the home cannot be resolved or created. */
export type HomeError = InvalidHomePath | HomeIsNativeHome | HomeNotADirectory;

/** The layout of a Wework Codex home at `home` for a user whose native Codex home is `nativeHome`. */
export const layoutOf = (
  platform: Platform,
  home: string,
  nativeHome: string,
  source: CodexHomeLayout['source'] = 'WEGENT_CODEX_HOME',
): CodexHomeLayout => {
  const profilesDirectory = joinPath(platform, home, ACCOUNT_PROFILES_DIRECTORY);
  return {
    platform,
    home: normalizePath(platform, home),
    source,
    authFile: joinPath(platform, home, 'auth.json'),
    configFile: joinPath(platform, home, 'config.toml'),
    stateFile: joinPath(platform, home, HOME_STATE_FILE),
    profilesDirectory,
    accountIndexFile: joinPath(platform, profilesDirectory, ACCOUNT_INDEX_FILE),
    nativeHome: normalizePath(platform, nativeHome),
    nativeAuthFile: joinPath(platform, nativeHome, 'auth.json'),
    nativeConfigFile: joinPath(platform, nativeHome, 'config.toml'),
  };
};

/**
 * Resolves the Wework Codex home: `WEGENT_CODEX_HOME` when set and non-empty, otherwise
 * `<executorHome>/codex`. Every path must be absolute; the home must differ from `~/.codex`.
 *
 * @example
 * ```ts
 * resolveCodexHome({ variables: {}, executorHome: '/home/ada/.wegent-executor', userHome: '/home/ada', platform: 'unix' });
 * // Right({ home: '/home/ada/.wegent-executor/codex', source: 'executorHome', nativeHome: '/home/ada/.codex', ... })
 * ```
 */
export const resolveCodexHome = (environment: HomeEnvironment): E.Either<InvalidHomePath | HomeIsNativeHome, CodexHomeLayout> => {
  const { platform } = environment;
  const override = environment.variables[WEGENT_CODEX_HOME];
  if (!isAbsolutePath(platform, environment.userHome)) return E.left({ _tag: 'InvalidHomePath', source: 'userHome', path: environment.userHome });
  const nativeHome = joinPath(platform, environment.userHome, '.codex');
  let layout: CodexHomeLayout;
  if (override !== undefined && override !== '') {
    if (!isAbsolutePath(platform, override)) return E.left({ _tag: 'InvalidHomePath', source: 'WEGENT_CODEX_HOME', path: override });
    layout = layoutOf(platform, override, nativeHome, 'WEGENT_CODEX_HOME');
  } else {
    if (!isAbsolutePath(platform, environment.executorHome)) {
      return E.left({ _tag: 'InvalidHomePath', source: 'executorHome', path: environment.executorHome });
    }
    layout = layoutOf(platform, joinPath(platform, environment.executorHome, CODEX_HOME_DIRECTORY), nativeHome, 'executorHome');
  }
  if (samePath(platform, layout.home, nativeHome)) return E.left({ _tag: 'HomeIsNativeHome', path: layout.home });
  return E.right(layout);
};

/** What {@link ensureCodexHome} found. */
export type EnsuredHome = 'Created' | 'Existing';

/**
 * Creates the Wework Codex home (mode 0700, with missing parents) when it is missing — the
 * app-server refuses a missing `CODEX_HOME`. An existing directory (or a link to one) is kept as is.
 * Refuses a home that resolves to the native Codex home through links.
 */
export const ensureCodexHome =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<HomeError | FileSystemError, EnsuredHome> =>
  async () => {
    const existing = await fs.stat(layout.home)();
    if (E.isLeft(existing)) return existing;
    if (existing.right !== null && existing.right.kind !== 'directory') return E.left({ _tag: 'HomeNotADirectory', path: layout.home });
    if (existing.right === null) {
      const made = await fs.makeDirectory(layout.home, PRIVATE_DIRECTORY_MODE)();
      return E.isLeft(made) ? made : E.right('Created');
    }
    const native = await fs.stat(layout.nativeHome)();
    if (E.isLeft(native)) return native;
    if (native.right !== null) {
      const [home, nativeHome] = [await fs.realPath(layout.home)(), await fs.realPath(layout.nativeHome)()];
      if (E.isLeft(home)) return home;
      if (E.isLeft(nativeHome)) return nativeHome;
      if (samePath(fs.platform, home.right, nativeHome.right)) return E.left({ _tag: 'HomeIsNativeHome', path: layout.home });
    }
    return E.right('Existing');
  };
