/**
 * `@wework/host-protocol`: the desktop executor's host protocol — JSON-RPC 2.0 between the executor and
 * its host (the Wework desktop client, or a test harness). One descriptor per request (method literal,
 * params codec, result codec), one per notification, the card of `card/show` and its answer, and the
 * error codes. The executor serves it; hosts import it. `docs/host-protocol.md` describes every message.
 *
 * Every value here is plain data; the codecs and functions are pure.
 */
export { notificationDescriptor, requestDescriptor, type NotificationDescriptor, type RequestDescriptor } from './Descriptor.js';
export {
  AccountsAdd,
  AccountsCancel,
  AccountsList,
  AccountsSwitch,
  AppsSetEnabled,
  AuthCancel,
  AuthRecover,
  EmptyResult,
  ExecutorInfo,
  HostRequests,
  IntegrationsAppsRead,
  IntegrationsAppsWrite,
  MessageSend,
  ModelsList,
  PluginsInstall,
  PluginsInstalled,
  PluginsList,
  PluginsRetryUpdate,
  PluginsSetEnabled,
  PluginsTrial,
  PluginsUninstall,
  SettingsRead,
  SettingsWrite,
  SkillsRead,
  SkillsSetEnabled,
  SupervisionClearModel,
  SupervisionInspect,
  SupervisionSetModel,
  TaskArchive,
  TaskCreate,
  TaskFork,
  TaskList,
  TaskOpen,
  TaskStop,
  type HostMethod,
  type HostParamsOf,
  type HostResultOf,
} from './Requests.js';
export {
  AgentMessageDeltaNotification,
  AuthSessionNotification,
  CardDismissedNotification,
  HostNotifications,
  InventoryChangedNotification,
  ItemNotification,
  LoginCompletedNotification,
  PluginsUpdateStatusNotification,
  RuntimeStatusNotification,
  TurnCompletedNotification,
  TurnStartedNotification,
  type HostNotificationMethod,
  type HostNotificationParamsOf,
} from './Notifications.js';
export { CardAnswerError, CardKind, CardOrigin, CardShow, CardShowParams, ExecutorRequests, HostAnswerType, HostCard, HostOption, HostQuestion, HostReply, plainHostQuestion } from './Cards.js';
export { HostErrorData, hostErrorData, type HostAnswer, type HostFailure, type HostHandler, type HostHandlers, type HostHandlersPart } from './Handlers.js';
export { HostErrorCode } from './ErrorCodes.js';
export { HOST_LIMITS } from './Limits.js';
export {
  CatalogPluginSummary,
  ConnectorLocalAuthSummary,
  MarketplaceEntry,
  MarketplaceKind,
  MarketplaceList,
  MarketplacesAdd,
  MarketplacesList,
  MarketplacesRefresh,
  MarketplacesRemove,
  MarketplacesReorder,
  PluginDetails,
  PluginsCatalog,
  PluginsRead,
} from './Marketplaces.js';
export {
  decodeHostNotification,
  decodeHostParams,
  decodeHostResult,
  describeDecodeErrors,
  hostRequest,
  type HostRequestMessage,
  type InvalidHostNotification,
  type InvalidHostParams,
  type InvalidHostResult,
} from './Decode.js';
export {
  AuthRequired,
  ExecutionRequest,
  ForkResult,
  ModelCategory,
  ModelRouterRoute,
  ModelSelection,
  PermissionMode,
  SendResult,
  TaskRecord,
} from './Tasks.js';
export { AccountList, Inspection, ListedAccount, PluginSummary, RuntimeState, RuntimeStatus, SupervisionModelConfig } from './Services.js';
export { SKILL_DESCRIPTION_MAX_CHARS, SKILL_NAME_MAX_CHARS, SKILL_PATH_MAX_CHARS, SKILLS_LIST_MAX, SkillScope, SkillsList, SkillWorkspace, WorkspaceSkill } from './Skills.js';
export { InstalledInventory, InstalledPlugin, InventoryApp, InventoryChange, InventorySkill, InventoryStatus, TrialResult, UpdateStatus } from './Inventory.js';
export {
  acceptEvent,
  advanceCursor,
  appendEvent,
  CardsPending,
  emptyEventLog,
  emptySubscription,
  EVENT_LOG_MAX_CHARS,
  EVENT_LOG_MAX_EVENTS,
  EventsSubscribe,
  EventsUnsubscribe,
  lastSeq,
  PendingCard,
  replayAfter,
  replayForSubscriber,
  Sequenced,
  subscribe,
  unsubscribe,
  type Acceptance,
  type EventLog,
  type EventLogBounds,
  type Replay,
  type SequencedEvent,
  type SharedSubscription,
  type SubscriptionAction,
} from './Events.js';
export {
  expiringNotice,
  expiringNoticeAt,
  ExpiresInSeconds,
  RESERVED_TOKEN_ENV,
  RuntimeClearWegentToken,
  RuntimeSetWegentToken,
  WEGENT_RUNTIME_TOKEN_ENV,
  WEGENT_TOKEN_MAX_EXPIRES_IN,
  WEGENT_TOKEN_MAX_LENGTH,
  WEGENT_TOKEN_NOTICE_LEAD_MS,
  WEGENT_TOKEN_NOTICE_SHARE,
  WegentToken,
  WegentTokenExpiringNotification,
  WegentTokenSchedule,
  wegentTokenSchedule,
  type ExpiresInBrand,
  type WegentTokenBrand,
} from './WegentToken.js';
export { REDACTED, redactHostMessage, redactHostParams } from './Redaction.js';
export { readWebHostLaunch, webHostFragment, webHostUrl, type WebHostLaunch } from './WebHostLaunch.js';
