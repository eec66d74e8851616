/**
 * The shapes of the one installed inventory and its management through the host protocol:
 * `plugins/installed`, the enable switches, the remote Apps / Connectors switch and `plugins/trial`.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { nullable } from './internal/nullable.js';


/**
 * The status of an installed plugin: `ok`, `installing` (a receipt bridges Codex's listing),
 * `repairRequired` with the reason, `updating` (a bundled upgrade of it runs), `updateFailed`.
 */
export const InventoryStatus = t.union(
  [
    t.type({ kind: t.literal('ok') }),
    t.type({ kind: t.literal('installing'), acceptedAt: t.number, expiresAt: t.number }),
    t.type({ kind: t.literal('repairRequired'), reason: t.string }),
    t.type({ kind: t.literal('updating') }),
    t.type({ kind: t.literal('updateFailed'), reason: t.string }),
  ],
  'InventoryStatus',
);
/** See the codec {@link InventoryStatus}. */
export type InventoryStatus = t.TypeOf<typeof InventoryStatus>;

/** A skill of an installed plugin: its name, `SKILL.md` path (for `skills/setEnabled`) and whether it is on. */
export const InventorySkill = t.type({ name: t.string, path: nullable(t.string), enabled: t.boolean }, 'InventorySkill');
/** See the codec {@link InventorySkill}. */
export type InventorySkill = t.TypeOf<typeof InventorySkill>;

/** An app (connector) of an installed plugin and whether `[apps.<id>]` leaves it on. */
export const InventoryApp = t.type({ id: t.string, name: t.string, enabled: t.boolean }, 'InventoryApp');
/** See the codec {@link InventoryApp}. */
export type InventoryApp = t.TypeOf<typeof InventoryApp>;

/** One plugin of the inventory: identity, origin, enablement, status, presentation, skills and apps. */
export const InstalledPlugin = t.type(
  {
    /** `<plugin>@<marketplace>`. */
    pluginId: t.string,
    name: t.string,
    marketplace: t.string,
    source: t.keyof({ official: null, custom: null, personal: null, cloud: null }),
    enabled: t.boolean,
    status: InventoryStatus,
    version: nullable(t.string),
    displayName: nullable(t.string),
    shortDescription: nullable(t.string),
    defaultPrompt: nullable(t.readonlyArray(t.string)),
    skills: t.readonlyArray(InventorySkill),
    apps: t.readonlyArray(InventoryApp),
  },
  'InstalledPlugin',
);
/** See the codec {@link InstalledPlugin}. */
export type InstalledPlugin = t.TypeOf<typeof InstalledPlugin>;

/** The result of `plugins/installed`. */
export const InstalledInventory = t.type(
  {
    /** The device this inventory belongs to. */
    deviceId: t.string,
    plugins: t.readonlyArray(InstalledPlugin),
    /** `true` while Codex has not answered (after a restart): the plugins come from the durable snapshot, without skills and apps. */
    fromSnapshot: t.boolean,
    /** When the snapshot was saved (epoch ms), when `fromSnapshot`. */
    savedAt: nullable(t.number),
  },
  'InstalledInventory',
);
/** See the codec {@link InstalledInventory}. */
export type InstalledInventory = t.TypeOf<typeof InstalledInventory>;

/** The answer of `plugins/trial`. */
export const TrialResult = t.union(
  [
    t.type({ kind: t.literal('ready'), pluginId: t.string, draft: t.type({ markdown: t.string, defaultPrompt: nullable(t.string) }) }),
    t.type({ kind: t.literal('needsInstall'), pluginId: t.string, reason: t.keyof({ missing: null, disabled: null, otherDevice: null }) }),
    t.type({ kind: t.literal('failed'), message: t.string }),
  ],
  'TrialResult',
);
/** See the codec {@link TrialResult}. */
export type TrialResult = t.TypeOf<typeof TrialResult>;

/** Why the inventory changed (`inventory/changed`). */
export const InventoryChange = t.keyof(
  { installed: null, uninstalled: null, pluginEnabled: null, skillEnabled: null, appEnabled: null, remoteApps: null, marketplaceRemoved: null },
  'InventoryChange',
);
/** See the codec {@link InventoryChange}. */
export type InventoryChange = t.TypeOf<typeof InventoryChange>;

/** The update status of a bundled plugin (`plugins/updateStatus`, `plugins/retryUpdate`): `ok`, `updating` or `updateFailed` with a short reason (a typed error's tag). */
export const UpdateStatus = t.union(
  [t.type({ kind: t.literal('ok') }), t.type({ kind: t.literal('updating') }), t.type({ kind: t.literal('updateFailed'), reason: t.string })],
  'UpdateStatus',
);
/** See the codec {@link UpdateStatus}. */
export type UpdateStatus = t.TypeOf<typeof UpdateStatus>;
