/**
 * `@wework/codex-home`: the isolated Wework Codex home.
 *
 * - {@link resolveCodexHome}: `WEGENT_CODEX_HOME`, else the `codex` child of the executor home;
 *   {@link ensureCodexHome} creates it (the app-server refuses a missing home).
 * - {@link linkNativeAuth}: reuse the user's `~/.codex/auth.json` (a link; a copy on Windows).
 * - Accounts saved on this device ({@link listAccounts}, {@link startAddAccount},
 *   {@link finishAddAccount}, {@link switchAccount}), labelled from non-secret JWT claims.
 * - First start ({@link detectFirstStart}, {@link applyMigration}) and the remote apps switch
 *   ({@link setRemoteApps}, {@link remoteAppsEdit}).
 * - {@link prepareConfig}: create or normalize config.toml before the app-server starts, with the
 *   Wework config.toml functions of the config module.
 *
 * Everything here is pure: the programs run through the `FileSystemPort` of `@wework/ports` (import
 * it, its error value and the path functions from there), implemented for Node by
 * `@wework/codex-home/node` and in memory by `@wework/codex-home/testing`.
 */
export {
  AccountIndex,
  decodeAccountIndex,
  emptyAccountIndex,
  encodeAccountIndex,
  SavedAccount,
  SNAPSHOT_NAME_PATTERN,
  SnapshotName,
  type CorruptAccountIndex,
} from './AccountIndex.js';
export {
  checkSwitchAllowed,
  finishAddAccount,
  listAccounts,
  loadAccountIndex,
  loginCompleted,
  readAccountIndex,
  readAuthDigest,
  saveActiveAccount,
  startAddAccount,
  switchAccount,
  type AccountList,
  type AccountsError,
  type ActiveAuthOccupied,
  type AddAccountOutcome,
  type AddAccountStarted,
  type ExecutorActivity,
  type ListedAccount,
  type LoadedAccountIndex,
  type NoActiveAuth,
  type ProfilesDirectoryRefused,
  type SavedActiveAccount,
  type SnapshotMismatch,
  type SnapshotOutcome,
  type SnapshotRefused,
  type SwitchOutcome,
  type SwitchRequest,
  type SwitchWhileBusy,
  type UnknownAccount,
} from './Accounts.js';
export { writeDestinationOf, type WriteDestination } from './AtomicWrite.js';
export {
  decodeAuthFile,
  decodeIdTokenClaims,
  identifyAuth,
  MAX_CLAIM_LENGTH,
  type AccountSummary,
  type AuthFileView,
  type AuthKind,
  type ChatGptClaims,
  type Digest,
  type MalformedAuthFile,
  type MalformedIdToken,
} from './AuthClaims.js';
export { linkNativeAuth, type AuthLinkOutcome, type AuthPathOccupied } from './AuthLink.js';
export { codexHome, prepareHomeForStart, type CodexHome, type HomePrepared, type HomePreparationError } from './CodexHome.js';
export {
  prepareConfig,
  type ConfigLinkBroken,
  type ConfigNotAFile,
  type ConfigNotText,
  type ConfigPreparation,
  type ConfigPreparationError,
} from './ConfigPreparation.js';
export {
  ACCOUNT_INDEX_FILE,
  ACCOUNT_PROFILES_DIRECTORY,
  CODEX_HOME_DIRECTORY,
  ensureCodexHome,
  HOME_STATE_FILE,
  layoutOf,
  resolveCodexHome,
  WEGENT_CODEX_HOME,
  type CodexHomeLayout,
  type EnsuredHome,
  type HomeEnvironment,
  type HomeError,
  type HomeIsNativeHome,
  type HomeNotADirectory,
  type InvalidHomePath,
} from './HomeLayout.js';
export {
  applyMigration,
  ConfigSource,
  decodeHomeState,
  DEFAULT_MIGRATION_CHOICE,
  detectFirstStart,
  encodeHomeState,
  HomeState,
  type AlreadyInitialized,
  type FirstStart,
  type MigrationChoice,
  type MigrationError,
  type MigrationResult,
  type NativeConfigNotText,
} from './Migration.js';
export {
  readRemoteApps,
  REMOTE_APPS_DEFAULT,
  REMOTE_APPS_KEY_PATH,
  remoteAppsEdit,
  setRemoteApps,
  type RemoteAppsError,
  type RemoteAppsNotEditable,
} from './RemoteApps.js';
export * from './config/index.js';
