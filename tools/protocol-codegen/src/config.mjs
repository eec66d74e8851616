/**
 * Which Codex app-server messages get io-ts codecs and method descriptors.
 *
 * This is the one place to extend the protocol surface of `@wework/codex-protocol`: add a method
 * name to the right list and run `node src/main.mjs generate`. Method names must match the
 * `"method"` literals of the generated `ClientRequest.ts`, `ClientNotification.ts`,
 * `ServerRequest.ts` and `ServerNotification.ts`; the generator fails on an unknown name.
 * `'*'` selects every method of that union.
 */

/** Client → server requests we send. */
export const clientRequests = [
  'initialize',
  'thread/start',
  'thread/resume',
  'thread/fork',
  'thread/unsubscribe',
  'thread/archive',
  'turn/start',
  'turn/interrupt',
  'turn/steer',
  'config/read',
  'config/batchWrite',
  'config/value/write',
  'model/list',
  'account/read',
  'account/logout',
  'account/login/start',
  'account/login/cancel',
  'skills/list',
  'plugin/list',
  'plugin/read',
  'plugin/install',
  'plugin/uninstall',
  'marketplace/add',
  'marketplace/remove',
  'marketplace/upgrade',
  'permissionProfile/list',
  'plugin/installed',
  'skills/config/write',
];

/** Client → server notifications. */
export const clientNotifications = ['initialized'];

/**
 * Server → client requests. All of them: a client must answer every server request (at least
 * with an error), so it must be able to recognise each one. Small: about 40 generated types.
 */
export const serverRequests = ['*'];

/**
 * Server → client notifications. All of them: most are small, and decoding every one lets a
 * client tell "a notification we ignore" from "a notification we do not understand".
 */
export const serverNotifications = ['*'];

/**
 * The response type of a request is found by convention: params type `XParams` → `XResponse`.
 * These methods break the convention (or take no params); the generator fails when a selected
 * request has neither a conventional response type nor an entry here.
 */
export const responseTypeOverrides = {
  'config/batchWrite': 'ConfigWriteResponse',
  'config/value/write': 'ConfigWriteResponse',
  'account/logout': 'LogoutAccountResponse',
};

/**
 * Descriptor constants are named after their method in PascalCase (`thread/start` →
 * `ThreadStart`). These methods would get a name that clashes with a global or a generated
 * type, so they are named here instead.
 */
export const descriptorNameOverrides = {
  error: 'ErrorNotice',
  'mcpServer/event/stream/notification': 'McpServerEventStreamNotice',
  'model/verification': 'ModelVerificationNotice',
};

/**
 * Generated types live in directories (`''` = the root, `v2`, `serde_json`). Codecs share one
 * flat namespace, so when two selected types have the same name, the one in the first directory
 * of this list keeps the plain name and the others get the prefix of their directory.
 */
export const nameClashPreference = ['v2', '', 'serde_json'];

/** Prefixes for clashing names, by directory. */
export const nameClashPrefixes = { '': 'Core', v2: 'V2', serde_json: 'Serde' };

/**
 * The codecs are split into one module per feature, named after the first segment of the
 * methods that use them (`thread/start` → `thread`). A type used by the methods of one feature
 * only lives in that feature's module; a type used by several features lives in `common`.
 * Segments not listed here are their own feature only if listed; the rest go to `session`.
 */
export const features = {
  thread: 'thread',
  turn: 'turn',
  item: 'item',
  rawResponseItem: 'item',
  rawResponse: 'item',
  account: 'account',
  attestation: 'account',
  remoteControl: 'account',
  config: 'config',
  configWarning: 'config',
  externalAgentConfig: 'config',
  permissionProfile: 'config',
  windowsSandbox: 'config',
  windows: 'config',
  project: 'config',
  plugin: 'plugin',
  marketplace: 'plugin',
  skills: 'plugin',
  app: 'plugin',
  hook: 'plugin',
  mcpServer: 'mcp',
  model: 'model',
  modelProvider: 'model',
  fs: 'command',
  command: 'command',
  process: 'command',
  fuzzyFileSearch: 'command',
  execCommandApproval: 'command',
  applyPatchApproval: 'command',
};

/**
 * Whether the codecs of what the peer sends are forward compatible (see modules.mjs): unknown
 * enum literals and tagged-union variants decode to typed unknown cases, and every type that we
 * send too gets a strict twin codec and type (`AskForApprovalStrict`) for what we encode.
 */
export const forwardCompatible = true;
