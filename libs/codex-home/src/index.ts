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
  checkSwitchAllowed,
  finishAddAccount,
  listAccounts,
  loginCompleted,
  readAccountIndex,
  startAddAccount,
  switchAccount,
  type AccountList,
  type AccountsError,
  type AddAccountOutcome,
  type SwitchOutcome,
} from './Accounts.js';
export { type AccountSummary } from './AuthClaims.js';
export { linkNativeAuth } from './AuthLink.js';
export {
  codexHome,
  prepareHomeForStart,
  type CodexHome,
  type HomePrepared,
  type HomePreparationError,
} from './CodexHome.js';
export { prepareConfig } from './ConfigPreparation.js';
export { ensureCodexHome, resolveCodexHome, WEGENT_CODEX_HOME, type HomeError } from './HomeLayout.js';
export {
  applyMigration,
  DEFAULT_MIGRATION_CHOICE,
  detectFirstStart,
  type FirstStart,
  type MigrationChoice,
} from './Migration.js';
export { REMOTE_APPS_DEFAULT, remoteAppsEdit, setRemoteApps } from './RemoteApps.js';
export {
  customInstructionsEdit,
  developerInstructionsEdit,
  personalityEdit,
  type InteractionStyle,
} from './config/SettingsEdits.js';
export { composeDeveloperInstructions, userCopyOf, withRoutingInstructions } from './config/DeveloperInstructions.js';
export { importNativeConfig } from './config/ImportNativeConfig.js';
export { freshConfigText, normalizeConfig } from './config/NormalizeConfig.js';
