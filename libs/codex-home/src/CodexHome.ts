/**
 * The programs of this library bound to one port and one home layout — what an executor holds.
 *
 * Pure: it only closes over its arguments; every method returns a lazy `TaskEither`.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as T from 'fp-ts/lib/Task.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  finishAddAccount,
  listAccounts,
  readAuthDigest,
  saveActiveAccount,
  startAddAccount,
  switchAccount,
  type AccountList,
  type AccountsError,
  type AddAccountOutcome,
  type AddAccountStarted,
  type SavedActiveAccount,
  type SwitchOutcome,
  type SwitchRequest,
} from './Accounts.js';
import type { FileSystemError, FileSystemPort } from '@wework/ports';
import { linkNativeAuth, type AuthLinkOutcome, type AuthPathOccupied } from './AuthLink.js';
import { prepareConfig, type ConfigPreparation, type ConfigPreparationError } from './ConfigPreparation.js';
import { ensureCodexHome, type CodexHomeLayout, type EnsuredHome, type HomeError } from './HomeLayout.js';
import { applyMigration, DEFAULT_MIGRATION_CHOICE, detectFirstStart, type FirstStart, type MigrationChoice, type MigrationError, type MigrationResult } from './Migration.js';
import { sweepInterruptedShellSnapshots } from './CodexLeftovers.js';

/** The Wework Codex home: its layout and every program of this library, bound to one port. */
export interface CodexHome {
  readonly layout: CodexHomeLayout;
  readonly fs: FileSystemPort;
  /** {@link ensureCodexHome}: creates the home when missing. */
  ensureHome(): TE.TaskEither<HomeError | FileSystemError, EnsuredHome>;
  /** {@link detectFirstStart}: whether to ask the first-start question. */
  detectFirstStart(): TE.TaskEither<FileSystemError, FirstStart>;
  /** {@link applyMigration}: initialises the home with the user's choice. */
  applyMigration(choice: MigrationChoice): TE.TaskEither<MigrationError, MigrationResult>;
  /** {@link linkNativeAuth}: reuses the native login. */
  linkNativeAuth(): TE.TaskEither<AuthPathOccupied | FileSystemError, AuthLinkOutcome>;
  /** {@link prepareConfig}: creates or normalizes config.toml. */
  prepareConfig(): TE.TaskEither<ConfigPreparationError, ConfigPreparation>;
  /** {@link listAccounts}: the accounts of this device. */
  listAccounts(): TE.TaskEither<AccountsError, AccountList>;
  /** {@link saveActiveAccount}: snapshots the active account. */
  saveActiveAccount(): TE.TaskEither<AccountsError, SavedActiveAccount>;
  /** {@link startAddAccount}: "Add account" before the browser login. */
  startAddAccount(): TE.TaskEither<AccountsError, AddAccountStarted>;
  /** {@link finishAddAccount}: "Add account" after the browser login. */
  finishAddAccount(started: AddAccountStarted): TE.TaskEither<AccountsError, AddAccountOutcome>;
  /** {@link switchAccount}: makes a saved account active. */
  switchAccount(request: SwitchRequest): TE.TaskEither<AccountsError, SwitchOutcome>;
  /** {@link readAuthDigest}: the digest of the active auth.json (login completion). */
  readAuthDigest(): TE.TaskEither<AccountsError, string | null>;
  /** {@link prepareHomeForStart}: everything to do before starting the app-server. */
  prepareForStart(
    askMigration: (question: Extract<FirstStart, { _tag: 'AskMigration' }>) => T.Task<MigrationChoice>,
  ): TE.TaskEither<HomePreparationError, HomePrepared>;
}

/** What {@link prepareHomeForStart} did, step by step. */
export interface HomePrepared {
  readonly home: EnsuredHome;
  readonly firstStart: FirstStart;
  /** The migration applied at this start (`null`: the home was initialised already). */
  readonly migration: MigrationResult | null;
  readonly authLink: AuthLinkOutcome;
  readonly config: ConfigPreparation;
  /**
   * Codex's interrupted shell snapshots removed before it starts (see {@link sweepInterruptedShellSnapshots}):
   * how many, or why they could not be (the start goes on; they are tried again at the next).
   */
  readonly interruptedShellSnapshots: E.Either<FileSystemError, number>;
}

/** Why {@link prepareHomeForStart} stopped (nothing after the failing step ran). */
export type HomePreparationError = HomeError | MigrationError | AuthPathOccupied | ConfigPreparationError | FileSystemError;

/**
 * Everything to do before starting the app-server, in order: create the home; on first start ask
 * `askMigration` (only when a native `~/.codex` exists; otherwise {@link DEFAULT_MIGRATION_CHOICE})
 * and apply the answer; link the native auth.json; prepare config.toml. Each step is all or nothing,
 * and a failed first start also removes the home it created.
 */
export const prepareHomeForStart =
  (
    fs: FileSystemPort,
    layout: CodexHomeLayout,
    askMigration: (question: Extract<FirstStart, { _tag: 'AskMigration' }>) => T.Task<MigrationChoice>,
  ): TE.TaskEither<HomePreparationError, HomePrepared> =>
  async () => {
    const home = await ensureCodexHome(fs, layout)();
    if (E.isLeft(home)) return home;
    const firstStart = await detectFirstStart(fs, layout)();
    if (E.isLeft(firstStart)) return firstStart;
    let migration: MigrationResult | null = null;
    if (firstStart.right._tag !== 'Initialized') {
      const choice = firstStart.right._tag === 'AskMigration' ? await askMigration(firstStart.right)() : DEFAULT_MIGRATION_CHOICE;
      const applied = await applyMigration(fs, layout, choice)();
      if (E.isLeft(applied)) {
        // A first start that fails leaves no home behind either, so the next start asks again.
        if (home.right === 'Created') await fs.removeEmptyDirectory(layout.home)();
        return applied;
      }
      migration = applied.right;
    }
    const authLink = await linkNativeAuth(fs, layout)();
    if (E.isLeft(authLink)) return authLink;
    const config = await prepareConfig(fs, layout)();
    if (E.isLeft(config)) return config;
    const interruptedShellSnapshots = await sweepInterruptedShellSnapshots(fs, layout)();
    return E.right({ home: home.right, firstStart: firstStart.right, migration, authLink: authLink.right, config: config.right, interruptedShellSnapshots });
  };

/**
 * Binds the programs of this library to `fs` and `layout`.
 *
 * @example
 * ```ts
 * const home = codexHome(new MemoryFileSystem(), layoutOf('unix', '/wework/codex', '/home/ada/.codex'));
 * await home.ensureHome()(); // Right('Created')
 * ```
 */
export const codexHome = (fs: FileSystemPort, layout: CodexHomeLayout): CodexHome => ({
  layout,
  fs,
  ensureHome: () => ensureCodexHome(fs, layout),
  detectFirstStart: () => detectFirstStart(fs, layout),
  applyMigration: (choice) => applyMigration(fs, layout, choice),
  linkNativeAuth: () => linkNativeAuth(fs, layout),
  prepareConfig: () => prepareConfig(fs, layout),
  listAccounts: () => listAccounts(fs, layout),
  saveActiveAccount: () => saveActiveAccount(fs, layout),
  startAddAccount: () => startAddAccount(fs, layout),
  finishAddAccount: (started) => finishAddAccount(fs, layout, started),
  switchAccount: (request) => switchAccount(fs, layout, request),
  readAuthDigest: () => readAuthDigest(fs, layout),
  prepareForStart: (askMigration) => prepareHomeForStart(fs, layout, askMigration),
});
