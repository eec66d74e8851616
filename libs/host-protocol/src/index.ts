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
  PluginsSetEnabled,
  PluginsTrial,
  PluginsUninstall,
  SettingsRead,
  SettingsWrite,
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
  RuntimeStatusNotification,
  TurnCompletedNotification,
  TurnStartedNotification,
  type HostNotificationMethod,
  type HostNotificationParamsOf,
} from './Notifications.js';
export { CardShow, HostReply, type CardAnswerError, type CardOrigin, type CardShowParams, type HostCard } from './Cards.js';
export { HostErrorCode } from './ErrorCodes.js';
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
export { InstalledInventory, InstalledPlugin, InventoryApp, InventoryChange, InventorySkill, InventoryStatus, TrialResult } from './Inventory.js';
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
export { readWebHostLaunch, webHostFragment, webHostUrl, type WebHostLaunch } from './WebHostLaunch.js';
