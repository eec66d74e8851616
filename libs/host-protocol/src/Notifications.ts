/**
 * The notifications the executor sends to its hosts, one descriptor each (method literal and params
 * codec); {@link HostNotifications} lists them by method. Params are wire JSON: `item` and `turn` are the
 * app-server's own `ThreadItem` and `Turn`.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { codecs } from '@wework/codex-protocol';
import { notificationDescriptor } from './Descriptor.js';
import { InventoryChange, UpdateStatus } from './Inventory.js';
import { RuntimeStatus } from './Services.js';
import { WegentTokenExpiringNotification } from './WegentToken.js';

/** `transcript/turnStarted`: a turn of a task started. */
export const TurnStartedNotification = notificationDescriptor('transcript/turnStarted', t.type({ taskId: t.string, threadId: t.string, turnId: t.string }));
/** `transcript/item`: an item of a task's turn started or completed. */
export const ItemNotification = notificationDescriptor(
  'transcript/item',
  t.type({ taskId: t.string, threadId: t.string, turnId: t.string, phase: t.keyof({ started: null, completed: null }), item: codecs.ThreadItem }),
);
/** `transcript/agentMessageDelta`: more text of an agent message. */
export const AgentMessageDeltaNotification = notificationDescriptor(
  'transcript/agentMessageDelta',
  t.type({ taskId: t.string, threadId: t.string, turnId: t.string, itemId: t.string, delta: t.string }),
);
/** `transcript/turnCompleted`: a turn of a task ended. */
export const TurnCompletedNotification = notificationDescriptor('transcript/turnCompleted', t.type({ taskId: t.string, threadId: t.string, turn: codecs.Turn }));
/** `card/dismissed`: a card was settled without the host (the task stopped, or Codex settled the request elsewhere). */
export const CardDismissedNotification = notificationDescriptor('card/dismissed', t.type({ cardId: t.string }));
/** `accounts/loginCompleted`: a login started with `accounts/add` ended. */
export const LoginCompletedNotification = notificationDescriptor('accounts/loginCompleted', t.type({ loginId: t.string, ok: t.boolean, message: t.union([t.string, t.null]) }));
/** `auth/session`: a plugin connector's login (QR code or browser step) and every change of its state. */
export const AuthSessionNotification = notificationDescriptor(
  'auth/session',
  t.intersection([
    t.type({
      sessionId: t.string,
      pluginKey: t.string,
      connectorSlug: t.string,
      reason: t.keyof({ install: null, recovery: null }),
      type: t.keyof({ local_qr: null, browser_oauth: null }),
      state: t.keyof({ preparing: null, waiting_scan: null, waiting_browser: null, verifying: null, ok: null, error: null, cancelled: null }),
    }),
    t.partial({ qr: t.type({ payload: t.string }), account: t.union([t.string, t.null]), message: t.string }),
  ]),
);
/** `runtime/status`: the app-server changed state (`restarting`, `ready`, `failed`, ...), with a reason and a secret-free stderr tail. */
export const RuntimeStatusNotification = notificationDescriptor('runtime/status', RuntimeStatus);

/** `inventory/changed`: the installed inventory changed (after every install, uninstall and switch); read `plugins/installed` again. */
export const InventoryChangedNotification = notificationDescriptor('inventory/changed', t.type({ change: InventoryChange, pluginId: t.union([t.string, t.null]) }));

/**
 * `plugins/updateStatus`: the update status of a bundled plugin changed (`updating` when a check
 * was admitted, then `ok` or `updateFailed`); `version` is the version it is updated to or now has,
 * when known.
 */
export const PluginsUpdateStatusNotification = notificationDescriptor(
  'plugins/updateStatus',
  t.intersection([t.type({ pluginId: t.string, status: UpdateStatus }), t.partial({ version: t.string })]),
);

/**
 * The `plugins/updateStatus` params of a bundled plugin's status change (`version` null when not known,
 * and then left out). Pure.
 *
 * @example
 * pluginsUpdateStatusParams({ pluginId: 'docs@bundled', status: { kind: 'updating' }, version: null }); // { pluginId: 'docs@bundled', status: { kind: 'updating' } }
 */
export const pluginsUpdateStatusParams = (change: {
  readonly pluginId: string;
  readonly status: UpdateStatus;
  readonly version: string | null;
}): HostNotificationParamsOf<typeof PluginsUpdateStatusNotification.method> => ({
  pluginId: change.pluginId,
  status: change.status,
  ...(change.version === null ? {} : { version: change.version }),
});

/** Every notification the executor sends to its hosts, by method. */
export const HostNotifications = {
  [TurnStartedNotification.method]: TurnStartedNotification,
  [ItemNotification.method]: ItemNotification,
  [AgentMessageDeltaNotification.method]: AgentMessageDeltaNotification,
  [TurnCompletedNotification.method]: TurnCompletedNotification,
  [CardDismissedNotification.method]: CardDismissedNotification,
  [LoginCompletedNotification.method]: LoginCompletedNotification,
  [AuthSessionNotification.method]: AuthSessionNotification,
  [RuntimeStatusNotification.method]: RuntimeStatusNotification,
  [InventoryChangedNotification.method]: InventoryChangedNotification,
  [WegentTokenExpiringNotification.method]: WegentTokenExpiringNotification,
  [PluginsUpdateStatusNotification.method]: PluginsUpdateStatusNotification,
} as const;

/** The method of a notification from the executor. */
export type HostNotificationMethod = keyof typeof HostNotifications;
/** The params type of a notification from the executor, by method. */
export type HostNotificationParamsOf<M extends HostNotificationMethod> = t.TypeOf<(typeof HostNotifications)[M]['params']>;
