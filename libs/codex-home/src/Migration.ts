/**
 * First start: when the Wework Codex home is uninitialised and a native `~/.codex` exists, the user
 * chooses once between a new home (reusing only the auth link) and migrating the native config, and
 * whether Codex may initialize remote apps. The answer is written into the Wework home.
 *
 * "Uninitialised" means: neither config.toml nor the state file `wework-home.json` exists in the
 * Wework home (an auth.json link alone does not count). A home with a config.toml but no state file
 * was set up before this question existed and is not asked again.
 *
 * The native home is only read: its config.toml goes through `importNativeConfig` (top-level `model`
 * dropped, everything else byte for byte, then normalized) into a new file of the Wework home. Programs are pure
 * descriptions run through a {@link FileSystemPort}.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { PRIVATE_FILE_MODE, writeFileAtomic, type FileSystemError, type FileSystemPort } from '@wework/ports';
import { linkNativeAuth, type AuthLinkOutcome, type AuthPathOccupied } from './AuthLink.js';
import type { ConfigError } from '@wework/config-toml';
import { freshConfigText, importNativeConfig, type ConfigChange, type ConfigWarning } from './config/index.js';
import { ensureCodexHome, type CodexHomeLayout, type HomeError } from './HomeLayout.js';
import { parseJson, textOf, utf8 } from './internal/Bytes.js';
import { setRemoteApps, type RemoteAppsNotEditable } from './RemoteApps.js';

/** Where the config of a newly initialised home came from. */
export const ConfigSource = t.keyof({ fresh: null, native: null }, 'ConfigSource');
/** `fresh`: a new config; `native`: imported from `~/.codex/config.toml`. */
export type ConfigSource = t.TypeOf<typeof ConfigSource>;

/** The state file's content (io-ts codec): the choice made at first start. */
export const HomeState = t.strict({ version: t.literal(1), configSource: ConfigSource, remoteApps: t.boolean }, 'HomeState');
/** The choice made at first start. `remoteApps` is the initial value; config.toml stays the source of truth. */
export type HomeState = t.TypeOf<typeof HomeState>;

/** The user's answer to the first-start question. */
export interface MigrationChoice {
  /** `fresh`: a new Wework home that only reuses the auth link; `native`: also migrate the native config. */
  readonly config: ConfigSource;
  /** Whether Codex may initialize remote apps (`[features] apps`). */
  readonly remoteApps: boolean;
}

/** The choice applied without asking when there is no native home: a fresh home, Codex's default for remote apps. */
export const DEFAULT_MIGRATION_CHOICE: MigrationChoice = { config: 'fresh', remoteApps: true };

/** What {@link detectFirstStart} found. */
export type FirstStart =
  /**
   * The home is initialised. `state` is the recorded choice; `null` when the home predates the
   * state file or the file is unreadable (the question is not asked again either way).
   */
  | { readonly _tag: 'Initialized'; readonly state: HomeState | null }
  /** Uninitialised and a native `~/.codex` exists: ask the user, then {@link applyMigration}. */
  | { readonly _tag: 'AskMigration'; readonly nativeHome: string; readonly nativeConfigExists: boolean }
  /** Uninitialised and no native home: apply {@link DEFAULT_MIGRATION_CHOICE} without asking. */
  | { readonly _tag: 'Uninitialized' };

/** Decodes state file bytes; `null` when they are not a valid state. */
export const decodeHomeState = (bytes: Uint8Array): HomeState | null => {
  const text = textOf(bytes);
  const json = text === null ? null : parseJson(text);
  if (json === null || E.isLeft(json)) return null;
  const state = HomeState.decode(json.right);
  return E.isRight(state) ? state.right : null;
};

/** The bytes of a state file. */
export const encodeHomeState = (state: HomeState): Uint8Array => utf8(`${JSON.stringify(HomeState.encode(state), null, 2)}\n`);

/** Whether the Wework home needs the first-start question. Never writes anything. */
export const detectFirstStart =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<FileSystemError, FirstStart> =>
  async () => {
    const state = await fs.lstat(layout.stateFile)();
    if (E.isLeft(state)) return state;
    if (state.right !== null) {
      const bytes = await fs.readFile(layout.stateFile, { followSymlink: false })();
      return E.right({ _tag: 'Initialized', state: E.isRight(bytes) ? decodeHomeState(bytes.right) : null });
    }
    const config = await fs.lstat(layout.configFile)();
    if (E.isLeft(config)) return config;
    if (config.right !== null) return E.right({ _tag: 'Initialized', state: null });
    const native = await fs.stat(layout.nativeHome)();
    if (E.isLeft(native)) return native;
    if (native.right?.kind !== 'directory') return E.right({ _tag: 'Uninitialized' });
    const nativeConfig = await fs.stat(layout.nativeConfigFile)();
    if (E.isLeft(nativeConfig)) return nativeConfig;
    return E.right({ _tag: 'AskMigration', nativeHome: layout.nativeHome, nativeConfigExists: nativeConfig.right?.kind === 'file' });
  };

/** The home was initialised already (config.toml or the state file exists); nothing was written. */
export interface AlreadyInitialized {
  readonly _tag: 'AlreadyInitialized';
  readonly path: string;
}

/** The native config.toml is not UTF-8 text; nothing was written. */
export interface NativeConfigNotText {
  readonly _tag: 'NativeConfigNotText';
  readonly path: string;
}

/** Why the migration was not applied. Nothing is written before the config text is ready. */
export type MigrationError =
  | AlreadyInitialized
  | ConfigError
  | NativeConfigNotText
  | RemoteAppsNotEditable
  | HomeError
  | AuthPathOccupied
  | FileSystemError;

/** What {@link applyMigration} did. */
export interface MigrationResult {
  readonly state: HomeState;
  readonly authLink: AuthLinkOutcome;
  /** `native` was chosen but there was no native config.toml: a fresh config was written. */
  readonly nativeConfigMissing: boolean;
  /** What the import changed in the native config text (top-level `model` removed, normalization). */
  readonly changes: ReadonlyArray<ConfigChange>;
  /** What the import left alone because changing it could lose settings; for the log. */
  readonly warnings: ReadonlyArray<ConfigWarning>;
}

interface ConfigText {
  readonly text: string;
  readonly nativeConfigMissing: boolean;
  readonly changes: ReadonlyArray<ConfigChange>;
  readonly warnings: ReadonlyArray<ConfigWarning>;
}

/** The config text of a choice; `nativeConfigMissing` when `native` had nothing to import. */
const configTextFor =
  (fs: FileSystemPort, layout: CodexHomeLayout, choice: MigrationChoice): TE.TaskEither<MigrationError, ConfigText> =>
  async () => {
    const fresh = { text: freshConfigText(), changes: [], warnings: [] };
    if (choice.config === 'fresh') return E.right({ ...fresh, nativeConfigMissing: false });
    const native = await fs.stat(layout.nativeConfigFile)();
    if (E.isLeft(native)) return native;
    if (native.right?.kind !== 'file') return E.right({ ...fresh, nativeConfigMissing: true });
    const bytes = await fs.readFile(layout.nativeConfigFile, { followSymlink: true })();
    if (E.isLeft(bytes)) return bytes;
    const text = textOf(bytes.right, true);
    if (text === null) return E.left({ _tag: 'NativeConfigNotText', path: layout.nativeConfigFile });
    const imported = importNativeConfig(text);
    if (E.isLeft(imported)) return imported;
    return E.right({ ...imported.right, nativeConfigMissing: false });
  };

/**
 * Initialises the Wework home with the user's choice: creates the home, writes config.toml (fresh, or
 * the native one through `importNativeConfig`) with `[features] apps` set as chosen, then the state
 * file, then links the native auth.json. Refuses an initialised home. Never writes the native home.
 * All or nothing: when a step fails, what the earlier steps created (the home, config.toml, the state
 * file) is removed again, so the question stays open and the next start asks it again.
 */
export const applyMigration =
  (fs: FileSystemPort, layout: CodexHomeLayout, choice: MigrationChoice): TE.TaskEither<MigrationError, MigrationResult> =>
  async () => {
    const home = await ensureCodexHome(fs, layout)();
    if (E.isLeft(home)) return home;
    const created: string[] = [];
    const failed = async <L>(error: E.Either<L, never>): Promise<E.Either<L, never>> => {
      for (const path of created.reverse()) await fs.removeFile(path)();
      if (home.right === 'Created') await fs.removeEmptyDirectory(layout.home)();
      return error;
    };
    for (const path of [layout.stateFile, layout.configFile]) {
      const found = await fs.lstat(path)();
      if (E.isLeft(found)) return failed(found);
      if (found.right !== null) return failed(E.left<MigrationError>({ _tag: 'AlreadyInitialized', path }));
    }
    const config = await configTextFor(fs, layout, choice)();
    if (E.isLeft(config)) return failed(config);
    const withApps = setRemoteApps(config.right.text, choice.remoteApps);
    if (E.isLeft(withApps)) return failed(withApps);
    const written = await writeFileAtomic(fs, layout.configFile, utf8(withApps.right), PRIVATE_FILE_MODE)();
    if (E.isLeft(written)) return failed(written);
    created.push(layout.configFile);
    const state: HomeState = { version: 1, configSource: config.right.nativeConfigMissing ? 'fresh' : choice.config, remoteApps: choice.remoteApps };
    const recorded = await writeFileAtomic(fs, layout.stateFile, encodeHomeState(state), PRIVATE_FILE_MODE)();
    if (E.isLeft(recorded)) return failed(recorded);
    created.push(layout.stateFile);
    // The last step, and all or nothing itself.
    const authLink = await linkNativeAuth(fs, layout)();
    if (E.isLeft(authLink)) return failed(authLink);
    return E.right({ state, authLink: authLink.right, nativeConfigMissing: config.right.nativeConfigMissing, changes: config.right.changes, warnings: config.right.warnings });
  };
