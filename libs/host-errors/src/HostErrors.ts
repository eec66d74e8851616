/**
 * The executor's typed errors, area by area, and the one mapping of each to the host protocol's error
 * reply: its code (`HostErrorCode`), `data.tag` (the error's `_tag`), `data.retryable` where the docs'
 * table says so, and a message for a person. A message names the params field an error concerns
 * (`taskId`, `name`, `pluginId`, …) but never its value, never a path, and never Codex's or the
 * operating system's own text: a request's strings are untrusted and may be long or hostile, and
 * Codex's and the OS's texts carry absolute paths (`/home/ada/.codex/config.toml`). Categories of closed
 * sets (a refusal's reason tag, an `errno` code's category, a Codex method, a number) are named.
 *
 * Every function here is pure: error values in, plain `HostFailure` data out.
 */
import { HostErrorCode, type HostFailure } from '@wework/host-protocol';
import { categoryTag, categoryText, fileSystemCategory, methodName } from './Category.js';

/** Why the executor's local runtime (the supervised `codex app-server`) could not do what was asked. */
export type RuntimeFault =
  | { readonly _tag: 'AppServerDidNotStart'; readonly reason: string }
  | { readonly _tag: 'PluginsNotReady'; readonly reason: string }
  | { readonly _tag: 'RequestFailed'; readonly method: string; readonly reason: string }
  | { readonly _tag: 'TurnDidNotFinish'; readonly reason: string }
  /** The app-server is not running (it ended and is restarting, or it failed); retryable while restarting. */
  | { readonly _tag: 'RuntimeUnavailable'; readonly reason: string; readonly retryable: boolean }
  /** A request to the app-server got no answer within its timeout. */
  | { readonly _tag: 'RuntimeTimedOut'; readonly method: string; readonly timeoutMs: number }
  /** The app-server refused the request unprocessed because it is overloaded; retryable. */
  | { readonly _tag: 'Overloaded'; readonly method: string }
  /** The app-server is restarting and `limit` requests wait for it already; retryable. */
  | { readonly _tag: 'TooManyWaiting'; readonly limit: number };

/** Why a task operation failed. `taskId` and `routeId` come from the request and are never shown. */
export type TaskFault =
  | { readonly _tag: 'TaskNotFound'; readonly taskId: string }
  | { readonly _tag: 'TaskExists'; readonly taskId: string }
  | { readonly _tag: 'TaskArchived'; readonly taskId: string }
  | { readonly _tag: 'ModelRouterRegistrationMissing'; readonly taskId: string; readonly routeId: string }
  | { readonly _tag: 'Runtime'; readonly error: RuntimeFault };

/** Why an operation of the Wegent cloud plugin service failed (`plugins/list`, `plugins/install` of a package). */
export type PluginServiceFault =
  | { readonly _tag: 'PluginsNotAvailable'; readonly message: string }
  | { readonly _tag: 'PluginNotFound'; readonly pluginId: string }
  | { readonly _tag: 'PluginOperationFailed'; readonly message: string }
  /** The package was refused at intake; `reason` is the intake's or the validation's tag (`Symlink`, `FileTooLarge`, `LinkInHome`, …). */
  | { readonly _tag: 'PackageRefused'; readonly reason: string; readonly message: string };

/** Why a request of plugin management (install, uninstall, the switches) failed. */
export type ManagementFault =
  | { readonly _tag: 'PluginNotFound'; readonly pluginId: string }
  | { readonly _tag: 'MarketplaceNotFound'; readonly marketplace: string }
  | { readonly _tag: 'SkillNotFound' }
  | { readonly _tag: 'AppNotFound' }
  | { readonly _tag: 'InstallRefused'; readonly message: string }
  | { readonly _tag: 'InventoryUnreadable'; readonly reason: string }
  /** Codex answered `method` with an error of `kind` (a client error's tag). */
  | { readonly _tag: 'CodexFailed'; readonly method: string; readonly kind: string }
  | { readonly _tag: 'Runtime'; readonly error: RuntimeFault }
  | { readonly _tag: 'CloudFailed'; readonly tag: string; readonly message: string };

/** Why a reorder was refused (`names` is not a permutation of the custom marketplaces). */
export interface ReorderFault {
  readonly _tag: 'UnknownMarketplace' | 'OfficialNotReorderable' | 'DuplicateMarketplace' | 'MissingMarketplace';
  readonly name: string;
}

/** Why a request of the plugin pages (marketplaces, catalogs, details) failed. */
export type MarketplaceFault =
  | { readonly _tag: 'MarketplaceNotFound'; readonly name: string }
  | { readonly _tag: 'OfficialNotEditable'; readonly name: string }
  | { readonly _tag: 'ReorderRefused'; readonly reason: ReorderFault }
  /** Codex refused to add or refresh it; `reason` is the refusal's category (`InvalidSource`, `RefOnlyForGit`, …). */
  | { readonly _tag: 'MarketplaceRefused'; readonly reason: string }
  | { readonly _tag: 'OfficialUnavailable'; readonly reason: string }
  /** The marketplace order could not be saved; `reason` is the file-system error's code (`ENOSPC`). */
  | { readonly _tag: 'PreferencesUnwritable'; readonly reason: string }
  | { readonly _tag: 'CatalogPluginNotFound'; readonly marketplace: string; readonly plugin: string }
  | { readonly _tag: 'CatalogUnavailable'; readonly reason: string }
  | { readonly _tag: 'Runtime'; readonly error: RuntimeFault };

/** An error of the saved Codex accounts (`@wework/codex-home`'s `AccountsError`, as far as a host reply needs it). */
export interface AccountsFault {
  readonly _tag: string;
  /** A file-system error's operation and `errno` code. */
  readonly operation?: string;
  readonly code?: string;
}

/** What runs while an account switch is refused. */
export interface BusyActivity {
  readonly activeTurns: ReadonlyArray<unknown>;
  readonly requestsInFlight: ReadonlyArray<unknown>;
  readonly serverRequestsPending: ReadonlyArray<unknown>;
}

/** Why a browser login did not complete. */
export type LoginFault =
  | { readonly _tag: 'LoginDidNotStart'; readonly reason: string }
  | { readonly _tag: 'LoginCancelled' }
  | { readonly _tag: 'LoginTimedOut'; readonly timeoutMs: number }
  | { readonly _tag: 'LoginFailed'; readonly reason: string };

/** Why an account operation failed. */
export type AccountFault =
  | { readonly _tag: 'Accounts'; readonly error: AccountsFault }
  | { readonly _tag: 'Login'; readonly error: LoginFault }
  | { readonly _tag: 'Runtime'; readonly error: RuntimeFault }
  | { readonly _tag: 'SwitchWhileBusy'; readonly activity: BusyActivity };

/** Why a setting could not be read or written: Codex answered `method` with an error (`reason` is its category). */
export interface SettingsFault {
  readonly _tag: 'SettingsRequestFailed';
  readonly method: string;
  readonly reason: string;
}

/** Why the installed inventory could not be read. */
export interface InventoryFault {
  readonly _tag: string;
  readonly reason: string;
}

/** Why `skills/read` could not read a skill file (the listing's own failure is a runtime or inventory error). */
export interface SkillReadFault {
  readonly _tag: string;
}

/**
 * What this executor cannot serve: a part it was started without (`service`), or a connector login
 * (`auth/cancel`'s `sessionId`, never shown) that is not open.
 */
export type UnavailableFault =
  | { readonly _tag: 'NotAvailable'; readonly service: 'marketplaces' | 'connectorAuthorization' }
  | { readonly _tag: 'AuthSessionNotFound'; readonly sessionId: string };

/** Why `supervision/inspect` could not run an inspection: no model is held, or the app-server failed it. */
export type InspectionFault = { readonly _tag: 'NoSupervisionModel' } | { readonly _tag: 'InspectionFailed'; readonly error: RuntimeFault };

/**
 * Why `auth/recover` did not bring a connector back: it is not installed here, the person cancelled,
 * the login failed, or the request is no longer current (the task moved on, or it was already used).
 * The plugin and connector the request named are never part of the message.
 */
export interface ConnectorRecoveryFault {
  readonly _tag: 'ConnectorNotFound' | 'RecoveryCancelled' | 'RecoveryFailed' | 'RecoveryObsolete';
}

/**
 * Why `message/send` sent nothing (`-32003`): the composed turn was refused — the model saved with the
 * task is not in Codex's catalog (`ModelUnavailable`), or none is saved and the catalog marks no default
 * (`NoDefaultModel`), both `@wework/model-catalog`'s `SendBlocked`; or a mention of the composer content is
 * invalid (`InvalidComposerContent`, `reason` a `@wework/mention-serializer` `InvalidMention`) — or the
 * task's delivery rules refused it (`@wework/thread-lifecycle`'s `DeliveryRefusal`): `limit` messages wait
 * already (`QueueFull`), or a steer carries what the running turn cannot take (`NotSteerable`, `reason`
 * `@wework/thread-lifecycle`'s `UnsteerableReason`: it names skills, plugins or apps, or changes settings). Those
 * libraries' values fit as they are; the model name, the models `available`, a mention's target and their
 * own texts (`message`, `reason`) are never shown.
 */
export type SendFault =
  | { readonly _tag: 'ModelUnavailable'; readonly available: ReadonlyArray<unknown> }
  | { readonly _tag: 'NoDefaultModel'; readonly available: ReadonlyArray<unknown> }
  | { readonly _tag: 'InvalidComposerContent'; readonly reason: { readonly _tag: 'EmptyName' | 'EmptyTarget' | 'SkillPathNotAbsolute' } }
  | { readonly _tag: 'QueueFull'; readonly limit: number }
  | { readonly _tag: 'NotSteerable'; readonly reason: { readonly _tag: 'NamesSkillsPluginsOrApps' | 'ChangesSettings' } };

/** Every error a handler area answers with, by area: the union the mapping covers. */
export type HostError =
  | { readonly area: 'runtime'; readonly error: RuntimeFault }
  | { readonly area: 'task'; readonly error: TaskFault }
  | { readonly area: 'pluginService'; readonly error: PluginServiceFault }
  | { readonly area: 'management'; readonly error: ManagementFault }
  | { readonly area: 'marketplace'; readonly error: MarketplaceFault }
  | { readonly area: 'account'; readonly error: AccountFault }
  | { readonly area: 'settings'; readonly error: SettingsFault }
  | { readonly area: 'inventory'; readonly error: InventoryFault }
  | { readonly area: 'skillRead'; readonly error: SkillReadFault }
  | { readonly area: 'unavailable'; readonly error: UnavailableFault }
  | { readonly area: 'inspection'; readonly error: InspectionFault }
  | { readonly area: 'connectorRecovery'; readonly error: ConnectorRecoveryFault }
  | { readonly area: 'send'; readonly error: SendFault };

/** ` (why)` for the executor's category text, or nothing when it holds anything else. */
const because = (text: string): string => {
  const shown = categoryText(text);
  return shown === null ? '' : ` (${shown})`;
};
/** ` (Tag)` for a category tag, or nothing. */
const tagged = (tag: string): string => {
  const shown = categoryTag(tag);
  return shown === null ? '' : ` (${shown})`;
};

const failure = (code: HostErrorCode, tag: string, message: string, retryable?: boolean): HostFailure => (retryable === undefined ? { code, message, tag } : { code, message, tag, retryable });

/**
 * The sentence for a runtime error: the method, the timeout, the limit, and the executor's category
 * of the failure when it shows nothing foreign.
 *
 * @example
 * describeRuntimeFault({ _tag: 'RequestFailed', method: 'config/read', reason: 'failed to load /home/ada/.codex/config.toml' });
 * // 'Codex could not complete config/read'
 */
export function describeRuntimeFault(error: RuntimeFault): string {
  switch (error._tag) {
    case 'AppServerDidNotStart':
      return `codex app-server did not start${because(error.reason)}`;
    case 'PluginsNotReady':
      return `the plugins of this executor did not become ready${because(error.reason)}`;
    case 'RequestFailed':
      return `Codex could not complete ${methodName(error.method)}${because(error.reason)}`;
    case 'TurnDidNotFinish':
      return `the turn did not finish${because(error.reason)}`;
    case 'RuntimeUnavailable':
      return `codex app-server is not available${because(error.reason)}`;
    case 'RuntimeTimedOut':
      return `${methodName(error.method)} got no answer from codex app-server within ${Math.round(error.timeoutMs)} ms`;
    case 'Overloaded':
      return `codex app-server is overloaded and refused ${methodName(error.method)}; try again shortly`;
    case 'TooManyWaiting':
      return `codex app-server is restarting and ${Math.round(error.limit)} requests wait for it already; send it again once runtime/status says ready`;
  }
}

/**
 * The reply for a runtime error: the app-server gone (`-32012`), a timeout (`-32013`) and Codex's
 * overload (`-32011`) have codes of their own; anything else is `-32004`.
 *
 * @example
 * runtimeFailure({ _tag: 'RuntimeTimedOut', method: 'plugin/list', timeoutMs: 30000 });
 * // { code: -32013, tag: 'RuntimeTimedOut', retryable: true, message: 'plugin/list got no answer from codex app-server within 30000 ms' }
 */
export function runtimeFailure(error: RuntimeFault): HostFailure {
  const message = describeRuntimeFault(error);
  switch (error._tag) {
    case 'RuntimeUnavailable':
      return failure(HostErrorCode.RuntimeUnavailable, error._tag, message, error.retryable);
    case 'RuntimeTimedOut':
      return failure(HostErrorCode.RuntimeTimedOut, error._tag, message, true);
    case 'Overloaded':
    case 'TooManyWaiting':
      return failure(HostErrorCode.Overloaded, error._tag, message, true);
    default:
      return failure(HostErrorCode.RuntimeFailed, error._tag, message);
  }
}

/** The reply for a task error (`-32001`, `-32002`, `-32005`, or the runtime's). */
export function taskFailure(error: TaskFault): HostFailure {
  switch (error._tag) {
    case 'Runtime':
      return runtimeFailure(error.error);
    case 'TaskNotFound':
      return failure(HostErrorCode.TaskNotFound, error._tag, 'no task with that taskId is open in the executor');
    case 'TaskExists':
      return failure(HostErrorCode.TaskConflict, error._tag, 'a task with that taskId is already open');
    case 'TaskArchived':
      return failure(HostErrorCode.TaskConflict, error._tag, 'the task with that taskId is archived');
    case 'ModelRouterRegistrationMissing':
      return failure(
        HostErrorCode.ModelRouterRegistrationMissing,
        error._tag,
        'the task runs through the local model router, which has no registration for it; start it again from its source so the router registers it',
      );
  }
}

/** The reply for an error of the Wegent cloud plugin service (`-32008`, `-32014`, `-32025`, `-32603`). */
export function pluginServiceFailure(error: PluginServiceFault): HostFailure {
  switch (error._tag) {
    case 'PluginsNotAvailable':
      return failure(HostErrorCode.NotAvailable, error._tag, categoryText(error.message) ?? 'plugin management is not available in this executor');
    case 'PluginNotFound':
      return failure(HostErrorCode.InternalError, error._tag, 'no plugin has that pluginId');
    case 'PackageRefused':
      return failure(HostErrorCode.PackageRefused, error._tag, `the package was refused${tagged(error.reason)}; nothing on disk changed`);
    case 'PluginOperationFailed':
      return failure(HostErrorCode.InternalError, error._tag, categoryText(error.message) ?? 'the plugin could not be synchronised');
  }
}

/** The reply for an error of plugin management (`-32025` … `-32028`, the runtime's, else `-32004`). */
export function managementFailure(error: ManagementFault): HostFailure {
  switch (error._tag) {
    case 'Runtime':
      return runtimeFailure(error.error);
    case 'PluginNotFound':
      return failure(HostErrorCode.PluginNotFound, error._tag, 'no installed plugin (or no plugin of that marketplace) has that pluginId');
    case 'MarketplaceNotFound':
      return failure(HostErrorCode.MarketplaceNotFound, error._tag, 'Codex knows no marketplace of that name');
    case 'SkillNotFound':
      return failure(HostErrorCode.SkillNotFound, error._tag, 'no skill of an installed plugin has that path or name');
    case 'AppNotFound':
      return failure(HostErrorCode.AppNotFound, error._tag, 'no app of an installed plugin has that id');
    case 'InstallRefused':
      return failure(HostErrorCode.InstallRefused, error._tag, categoryText(error.message) ?? 'the installation was refused before anything was written');
    case 'InventoryUnreadable':
      return failure(HostErrorCode.RuntimeFailed, error._tag, `the plugin inventory could not be read${because(error.reason)}`);
    case 'CodexFailed':
      return failure(HostErrorCode.RuntimeFailed, error._tag, `Codex could not complete ${methodName(error.method)}${tagged(error.kind)}; nothing was changed`);
    case 'CloudFailed':
      return failure(HostErrorCode.RuntimeFailed, error._tag, categoryText(error.message) ?? `the cloud plugin could not be removed${tagged(error.tag)}`);
  }
}

/** The reply for an error of the plugin pages (`-32020` … `-32024`, the runtime's, `-32603` for an unsaved order). */
export function marketplaceFailure(error: MarketplaceFault): HostFailure {
  switch (error._tag) {
    case 'Runtime':
      return runtimeFailure(error.error);
    case 'MarketplaceNotFound':
      return failure(HostErrorCode.MarketplaceNotFound, error._tag, 'no marketplace of that name is configured');
    case 'OfficialNotEditable':
      return failure(HostErrorCode.MarketplaceNotEditable, error._tag, 'the OpenAI official marketplace cannot be removed, reordered or edited');
    case 'ReorderRefused':
      return failure(HostErrorCode.MarketplaceNotEditable, error._tag, `names must list every custom marketplace exactly once${tagged(error.reason._tag)}`);
    case 'MarketplaceRefused':
      return failure(HostErrorCode.MarketplaceRefused, error._tag, `Codex refused the marketplace${tagged(error.reason)}; nothing was added or changed`);
    case 'CatalogPluginNotFound':
      return failure(HostErrorCode.CatalogPluginNotFound, error._tag, 'no plugin of that name in that marketplace');
    case 'OfficialUnavailable':
    case 'CatalogUnavailable':
      return failure(HostErrorCode.CatalogUnavailable, error._tag, `the OpenAI official catalog could not be read${tagged(error.reason)}; sign in with ChatGPT and check the network, then refresh`);
    case 'PreferencesUnwritable': {
      const category = fileSystemCategory(error.reason);
      return failure(HostErrorCode.InternalError, error._tag, `the marketplace order could not be saved (${category.words}); nothing was changed`, category.retryable);
    }
  }
}

/** The sentence for a login that did not complete (the `message` of `accounts/loginCompleted` too). */
export function describeLoginFault(error: LoginFault): string {
  switch (error._tag) {
    case 'LoginDidNotStart':
      return `the sign-in could not start${because(error.reason)}`;
    case 'LoginCancelled':
      return 'the sign-in was cancelled';
    case 'LoginTimedOut':
      return `the sign-in did not finish within ${Math.round(error.timeoutMs / 1000)} s`;
    case 'LoginFailed':
      return `the sign-in failed${because(error.reason)}`;
  }
}

const describeAccountsFault = (error: AccountsFault): string => {
  switch (error._tag) {
    case 'UnknownAccount':
      return 'that account is not saved on this device';
    case 'NoActiveAuth':
      return 'no Codex account is signed in';
    case 'SwitchWhileBusy':
      return 'cannot switch accounts while work is running; try again when it has finished';
    case 'FileSystemError':
      return `the Codex home could not be read or written (${fileSystemCategory(error.code ?? '').words}); nothing was changed`;
    default:
      return `the saved accounts could not be used${tagged(error._tag)}`;
  }
};

/** The sentence for an account error (never a token, a digest or an auth.json path). */
export function describeAccountFault(error: AccountFault): string {
  switch (error._tag) {
    case 'Login':
      return describeLoginFault(error.error);
    case 'Runtime':
      return describeRuntimeFault(error.error);
    case 'SwitchWhileBusy': {
      const { activeTurns, requestsInFlight, serverRequestsPending } = error.activity;
      return `cannot switch accounts while work is running (${activeTurns.length} turn(s), ${requestsInFlight.length + serverRequestsPending.length} request(s)); try again when it has finished`;
    }
    case 'Accounts':
      return describeAccountsFault(error.error);
  }
}

/** The reply for an account error: `-32006`, retryable when a full disk refused a write. */
export function accountFailure(error: AccountFault): HostFailure {
  const message = describeAccountFault(error);
  const retryable = error._tag === 'Accounts' && error.error._tag === 'FileSystemError' && fileSystemCategory(error.error.code ?? '').retryable ? true : undefined;
  return failure(HostErrorCode.AccountFailed, error._tag, message, retryable);
}

/** The reply for a settings error: `-32007`, naming the Codex method and the failure's category. */
export function settingsFailure(error: SettingsFault): HostFailure {
  const verb = /write/i.test(error.method) ? 'written' : 'read';
  return failure(HostErrorCode.SettingsFailed, error._tag, `the setting could not be ${verb} (${categoryText(error.reason) ?? `${methodName(error.method)} failed`})`);
}

/** The reply when the installed inventory could not be read: `-32004`, retryable. */
export function inventoryFailure(error: InventoryFault): HostFailure {
  return failure(HostErrorCode.RuntimeFailed, categoryTag(error._tag) ?? 'InventoryUnreadable', `the plugin inventory could not be read${because(error.reason)}`, true);
}

/** The reply when a known skill's file could not be read (`SkillNotFound` is `-32026`, anything else `-32004`). */
export function skillReadFailure(error: SkillReadFault): HostFailure {
  return error._tag === 'SkillNotFound'
    ? failure(HostErrorCode.SkillNotFound, error._tag, 'no skill of an installed plugin or of the workspace has that path')
    : failure(HostErrorCode.RuntimeFailed, categoryTag(error._tag) ?? 'SkillUnreadable', 'the skill file could not be read');
}

/** The reply when this executor cannot serve the request: `-32008`. */
function unavailableFailure(error: UnavailableFault): HostFailure {
  switch (error._tag) {
    case 'NotAvailable':
      return failure(HostErrorCode.NotAvailable, error._tag, error.service === 'marketplaces' ? 'marketplaces are not available in this executor' : 'connector authorization is not available in this executor');
    case 'AuthSessionNotFound':
      return failure(HostErrorCode.NotAvailable, error._tag, 'no connector login with that id is open');
  }
}

/** The reply when an inspection could not run: `-32009`. */
function inspectionFailure(error: InspectionFault): HostFailure {
  if (error._tag === 'NoSupervisionModel') return failure(HostErrorCode.SupervisionFailed, error._tag, 'no supervision model is set; choose one in the supervision settings');
  const cause = runtimeFailure(error.error);
  return failure(HostErrorCode.SupervisionFailed, error._tag, `the inspection failed: ${cause.message}`, cause.retryable);
}

/** The reply when `auth/recover` did not bring the connector back: `-32010`. */
function connectorRecoveryFailure(error: ConnectorRecoveryFault): HostFailure {
  switch (error._tag) {
    case 'ConnectorNotFound':
      return failure(HostErrorCode.AuthorizationFailed, error._tag, 'that connector of that plugin is not installed on this device');
    case 'RecoveryCancelled':
      return failure(HostErrorCode.AuthorizationFailed, error._tag, 'the connector login was cancelled', true);
    case 'RecoveryFailed':
      return failure(HostErrorCode.AuthorizationFailed, error._tag, 'the connector login failed', true);
    case 'RecoveryObsolete':
      return failure(HostErrorCode.AuthorizationFailed, error._tag, 'this login request is no longer current: the task has moved on or it was already used');
  }
}

/** What to do when no model can be sent with: choose one the host lists, or wait for one. */
const chooseModel = (available: ReadonlyArray<unknown>): string =>
  available.length === 0 ? 'no model is available right now; send again once models/list lists one' : 'choose a model that models/list lists and send again with it as modelSelection';

/** Why a steer cannot join the running turn, by the delivery rules' reason: what only a new turn takes. */
const notSteerable: Readonly<Record<Extract<SendFault, { readonly _tag: 'NotSteerable' }>['reason']['_tag'], string>> = {
  NamesSkillsPluginsOrApps: 'it names skills, plugins or apps, which Codex applies only when a turn starts',
  ChangesSettings: 'it changes the model or the permission mode, which only a new turn takes',
};

/** The reply when `message/send` sent nothing: `-32003`, a fixed sentence per refusal that says what to do. */
function sendFailure(error: SendFault): HostFailure {
  switch (error._tag) {
    case 'ModelUnavailable':
      return failure(HostErrorCode.SendBlocked, error._tag, `the model saved with the task is not available; ${chooseModel(error.available)}`);
    case 'NoDefaultModel':
      return failure(HostErrorCode.SendBlocked, error._tag, `the task has no saved model and Codex marks none as the default; ${chooseModel(error.available)}`);
    case 'InvalidComposerContent':
      return failure(HostErrorCode.SendBlocked, error._tag, `the message has an invalid mention${tagged(error.reason._tag)}; choose the mention again in the composer or remove it, then send again`);
    case 'QueueFull':
      return failure(HostErrorCode.SendBlocked, error._tag, `${Math.round(error.limit)} messages of this task already wait for its running turn; wait for it or stop the task`);
    case 'NotSteerable':
      return failure(HostErrorCode.SendBlocked, error._tag, `this message cannot join the running turn: ${notSteerable[error.reason._tag]}; send it again with delivery queue`);
  }
}

/**
 * The reply for any error of any area: the one entry the executor's handlers and the property test use.
 *
 * @example
 * hostFailure({ area: 'marketplace', error: { _tag: 'PreferencesUnwritable', reason: 'ENOSPC' } });
 * // { code: -32603, tag: 'PreferencesUnwritable', retryable: true, message: 'the marketplace order could not be saved (the disk is full); nothing was changed' }
 */
export function hostFailure(error: HostError): HostFailure {
  switch (error.area) {
    case 'runtime':
      return runtimeFailure(error.error);
    case 'task':
      return taskFailure(error.error);
    case 'pluginService':
      return pluginServiceFailure(error.error);
    case 'management':
      return managementFailure(error.error);
    case 'marketplace':
      return marketplaceFailure(error.error);
    case 'account':
      return accountFailure(error.error);
    case 'settings':
      return settingsFailure(error.error);
    case 'inventory':
      return inventoryFailure(error.error);
    case 'skillRead':
      return skillReadFailure(error.error);
    case 'unavailable':
      return unavailableFailure(error.error);
    case 'inspection':
      return inspectionFailure(error.error);
    case 'connectorRecovery':
      return connectorRecoveryFailure(error.error);
    case 'send':
      return sendFailure(error.error);
  }
}
