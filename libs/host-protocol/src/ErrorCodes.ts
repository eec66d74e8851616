/**
 * The error codes of the executor's replies: JSON-RPC's own, and the executor's in the server range
 * (-32001 and on). `data.tag` of a reply carries the typed error's `_tag`; `data.retryable`, when
 * present, says whether the same request may succeed later. A wire table, kept apart from local errors.
 */

/** Error codes of the executor's replies, by name. */
export const HostErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** No task with that id is open in the executor. */
  TaskNotFound: -32001,
  /** The task is archived, or already exists. */
  TaskConflict: -32002,
  /**
   * Nothing was sent: the saved model is unavailable, the composer content is invalid, sixteen messages of
   * the task already wait (`QueueFull`), or the message cannot join the running turn (`NotSteerable`).
   */
  SendBlocked: -32003,
  /** The app-server refused or failed the request, or the turn did not finish. */
  RuntimeFailed: -32004,
  /** A routed task whose local model router registration is gone. */
  ModelRouterRegistrationMissing: -32005,
  AccountFailed: -32006,
  SettingsFailed: -32007,
  /** The feature is not available in this executor (e.g. plugin management not wired yet). */
  NotAvailable: -32008,
  /** No supervision model is set, or the inspection failed. */
  SupervisionFailed: -32009,
  /** A connector login was cancelled or failed, or the connector is not installed on this device. */
  AuthorizationFailed: -32010,
  /**
   * Retryable: too many host requests are in flight (the documented concurrency bound), too many wait for
   * a restarting app-server, or Codex answered that it is overloaded. Nothing was done; send it again later.
   */
  Overloaded: -32011,
  /**
   * The app-server is not running and the request was not run: not retryable once `runtime/status` says
   * `failed`; retryable when the request waited its whole bound for a restarting app-server.
   */
  RuntimeUnavailable: -32012,
  /** A request from the executor to Codex got no answer within its timeout. */
  RuntimeTimedOut: -32013,
  /** A plugin package was refused at intake (a link, a special file, a hard link, over a limit); nothing on disk changed. */
  PackageRefused: -32014,
  /** No marketplace with that name (custom or official) is known to Codex. */
  MarketplaceNotFound: -32020,
  /** The official marketplace cannot be removed or reordered, or a reorder is not a permutation of the custom marketplaces. */
  MarketplaceNotEditable: -32021,
  /** Codex refused to add or refresh the marketplace (an invalid source, a failed clone or pull); nothing was added. */
  MarketplaceRefused: -32022,
  /** No plugin with that name in that marketplace's catalog. */
  CatalogPluginNotFound: -32023,
  /** The official catalog could not be read (offline, not signed in to ChatGPT, or the account changed meanwhile). */
  CatalogUnavailable: -32024,
  /** No installed plugin has that identity (`name@marketplace`), or the marketplace does not offer it for installation. */
  PluginNotFound: -32025,
  /** No skill of an installed plugin has that path or name. */
  SkillNotFound: -32026,
  /** No app of an installed plugin has that id. */
  AppNotFound: -32027,
  /** An installation was refused before anything was written (an `on_install` login cancelled or failed, a plugin Codex cannot install). */
  InstallRefused: -32028,
  /** The user uninstalled that bundled plugin: its background synchronisation is paused until it is installed again. */
  UpdatePaused: -32035,
} as const;
/** One of the values of {@link HostErrorCode}. */
export type HostErrorCode = (typeof HostErrorCode)[keyof typeof HostErrorCode];
