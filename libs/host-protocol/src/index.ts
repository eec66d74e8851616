/**
 * `@wework/host-protocol`: the desktop executor's host protocol — JSON-RPC 2.0 between the executor and
 * its host (the Wework desktop client, or a test harness). One descriptor per request (method literal,
 * params codec, result codec), one per notification, the card of `card/show` and its answer, and the
 * error codes. The executor serves it; hosts import it. `docs/host-protocol.md` describes every message.
 *
 * Every value here is plain data; the codecs and functions are pure.
 */
export {
  EmptyResult,
  HostRequests,
  MessageSend,
  TaskCreate,
  type HostMethod,
  type HostParamsOf,
  type HostResultOf,
} from './Requests.js';
export {
  AuthSessionNotification,
  CardDismissedNotification,
  HostNotifications,
  InventoryChangedNotification,
  LoginCompletedNotification,
  PluginsUpdateStatusNotification,
  pluginsUpdateStatusParams,
  RuntimeStatusNotification,
  type HostNotificationMethod,
  type HostNotificationParamsOf,
} from './Notifications.js';
export {
  hostTranscriptNotification,
  onCodexTranscript,
  transcriptNotification,
  type CodexTranscriptNotification,
} from './Transcript.js';
export {
  CardAnswerError,
  CardKind,
  CardOrigin,
  CardShow,
  ExecutorRequests,
  HostCard,
  HostCardUrl,
  HostQuestion,
  HostReply,
  plainHostQuestion,
} from './Cards.js';
export {
  HostErrorData,
  hostErrorData,
  type HostAnswer,
  type HostFailure,
  type HostHandler,
  type HostHandlers,
  type HostHandlersPart,
} from './Handlers.js';
export { HostErrorCode } from './ErrorCodes.js';
export { HOST_LIMITS } from './Limits.js';
export { CatalogPluginSummary, MarketplaceEntry, MarketplaceList, PluginDetails } from './Marketplaces.js';
export {
  decodeHostNotification,
  decodeHostParams,
  decodeHostResult,
  describeDecodeErrors,
  hostRequest,
} from './Decode.js';
export { ExecutionRequest, ModelRouterRoute, ModelSelection, PermissionMode, SendResult, TaskRecord } from './Tasks.js';
export {
  AccountList,
  Inspection,
  PluginSummary,
  RuntimeState,
  RuntimeStatus,
  SupervisionModelConfig,
} from './Services.js';
export {
  decideRuntimeWait,
  DEFAULT_RUNTIME_WAIT,
  runAgain,
  runtimeWaitBound,
  type RuntimeWaitConfig,
  type RuntimeWaitDecision,
} from './RuntimeWait.js';
export {
  SKILL_DESCRIPTION_MAX_CHARS,
  SKILL_NAME_MAX_CHARS,
  SKILL_PATH_MAX_CHARS,
  SKILLS_LIST_MAX,
  SkillScope,
  SkillWorkspace,
  WorkspaceSkill,
} from './Skills.js';
export {
  InstalledInventory,
  InstalledPlugin,
  InventoryApp,
  InventoryChange,
  InventorySkill,
  TrialResult,
} from './Inventory.js';
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
  lastSeq,
  PendingCard,
  replayAfter,
  replayForSubscriber,
  Sequenced,
  subscribe,
  unsubscribe,
  type EventLog,
  type EventLogBounds,
  type SharedSubscription,
} from './Events.js';
export {
  expiringNotice,
  expiringNoticeAt,
  RuntimeSetWegentToken,
  WEGENT_RUNTIME_TOKEN_ENV,
  WegentTokenExpiringNotification,
  WegentTokenSchedule,
  wegentTokenSchedule,
} from './WegentToken.js';
export { REDACTED, redactHostMessage, redactHostParams } from './Redaction.js';
export { readWebHostLaunch, webHostFragment, webHostUrl } from './WebHostLaunch.js';
export { HOST_PROTOCOL_VERSION, hostProtocolSchema, schemaForMessage } from './ProtocolSchema.js';
export { hostProtocolOpenRpc, hostProtocolSchemaFiles } from './OpenRpc.js';
export { conformanceOf, type Conformance, type RecordedMessage, type SchemaValidator } from './Conformance.js';
