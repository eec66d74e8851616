/**
 * Durable inventory snapshots. The in-memory inventory keeps full plugin details; what is written to
 * disk keeps only what the plugin pages and chat picker need to draw a plugin, and what recovery
 * needs to find it again: identity, installed/enabled state, version, the short presentation fields
 * and the default prompts. Long descriptions, screenshots and the legal/website links are dropped
 * (details are read again with `plugin/read` when a plugin is opened).
 *
 * Every function here is pure; decoding never throws, whatever the stored JSON.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { DecodeIssue } from '@wework/decode-issues';
import { decodeIssues } from './internal/decodeIssues.js';
import { PluginRefFromString, type PluginRef } from './PluginRef.js';

/** The presentation fields of a plugin, as Codex's `PluginInterface` names them (all optional here). */
export interface PluginPresentation {
  readonly displayName?: string | null;
  readonly shortDescription?: string | null;
  readonly longDescription?: string | null;
  readonly developerName?: string | null;
  readonly category?: string | null;
  readonly capabilities?: ReadonlyArray<string>;
  readonly websiteUrl?: string | null;
  readonly privacyPolicyUrl?: string | null;
  readonly termsOfServiceUrl?: string | null;
  readonly defaultPrompt?: ReadonlyArray<string> | null;
  readonly brandColor?: string | null;
  readonly composerIcon?: string | null;
  readonly composerIconUrl?: string | null;
  readonly logo?: string | null;
  readonly logoDark?: string | null;
  readonly logoUrl?: string | null;
  readonly logoUrlDark?: string | null;
  readonly screenshots?: ReadonlyArray<string>;
  readonly screenshotUrls?: ReadonlyArray<string>;
}

/** A plugin as the in-memory inventory holds it (details included; a host's own extra fields are ignored). */
export interface InventoryPlugin {
  readonly ref: PluginRef;
  readonly installed: boolean;
  readonly enabled: boolean;
  readonly version?: string | null;
  /** The manifest's description (can be long; not persisted). */
  readonly description?: string | null;
  readonly interface?: PluginPresentation | null;
  /** The cloud installation id of a Wegent cloud plugin (kept for recovery). */
  readonly installationId?: string | null;
}

const nullableString = t.union([t.string, t.null]);

/** Codec of one plugin in a snapshot. Decoding keeps exactly these fields and strips any other. */
export const PluginSnapshot = t.exact(
  t.type({
    ref: PluginRefFromString,
    installed: t.boolean,
    enabled: t.boolean,
    version: nullableString,
    displayName: nullableString,
    shortDescription: nullableString,
    developerName: nullableString,
    category: nullableString,
    capabilities: t.readonlyArray(t.string),
    brandColor: nullableString,
    composerIcon: nullableString,
    logo: nullableString,
    defaultPrompt: t.union([t.readonlyArray(t.string), t.null]),
    installationId: nullableString,
  }),
  'PluginSnapshot',
);
/** One plugin in a snapshot: identity, state, short presentation and default prompts. */
export type PluginSnapshot = t.TypeOf<typeof PluginSnapshot>;

/** The fields a snapshot never keeps. */
export const DROPPED_FIELDS: ReadonlyArray<string> = [
  'description',
  'longDescription',
  'screenshots',
  'screenshotUrls',
  'websiteUrl',
  'privacyPolicyUrl',
  'termsOfServiceUrl',
];

/** The format version written by {@link snapshotInventory}. */
export const SNAPSHOT_VERSION = 1;

/** A stored inventory snapshot. */
export interface InventorySnapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  /** Epoch ms when it was taken. */
  readonly savedAt: number;
  readonly plugins: ReadonlyArray<PluginSnapshot>;
}

const Envelope = t.type({ version: t.literal(SNAPSHOT_VERSION), savedAt: t.number, plugins: t.UnknownArray }, 'InventorySnapshot');

/**
 * Keeps the presentation and recovery fields of one plugin. Logos and icons are kept as the local path
 * when there is one, else the remote URL.
 * @example
 * ```ts
 * projectPlugin(plugin).defaultPrompt; // kept
 * 'longDescription' in projectPlugin(plugin); // false
 * ```
 */
export const projectPlugin = (plugin: InventoryPlugin): PluginSnapshot => {
  const face = plugin.interface ?? {};
  return {
    ref: plugin.ref,
    installed: plugin.installed,
    enabled: plugin.enabled,
    version: plugin.version ?? null,
    displayName: face.displayName ?? null,
    shortDescription: face.shortDescription ?? null,
    developerName: face.developerName ?? null,
    category: face.category ?? null,
    capabilities: [...(face.capabilities ?? [])],
    brandColor: face.brandColor ?? null,
    composerIcon: face.composerIcon ?? face.composerIconUrl ?? null,
    logo: face.logo ?? face.logoUrl ?? null,
    defaultPrompt: face.defaultPrompt == null ? null : [...face.defaultPrompt],
    installationId: plugin.installationId ?? null,
  };
};

/** A snapshot of the inventory taken at `savedAt` (epoch ms), ready to be written as JSON. */
export const snapshotInventory = (plugins: ReadonlyArray<InventoryPlugin>, savedAt: number): InventorySnapshot => ({
  version: SNAPSHOT_VERSION,
  savedAt,
  plugins: plugins.map(projectPlugin),
});

/** The JSON form of a snapshot (references as `plugin://name@marketplace`). */
export const encodeSnapshot = (snapshot: InventorySnapshot): unknown => ({
  version: snapshot.version,
  savedAt: snapshot.savedAt,
  plugins: snapshot.plugins.map((plugin) => PluginSnapshot.encode(plugin)),
});

/** A stored snapshot that cannot be read at all (wrong shape or version). */
export interface InvalidSnapshot {
  readonly _tag: 'InvalidSnapshot';
  readonly issues: ReadonlyArray<DecodeIssue>;
  readonly message: string;
}

/** A decoded snapshot and how many stored plugins were unreadable and left out. */
export interface DecodedSnapshot {
  readonly snapshot: InventorySnapshot;
  readonly droppedPlugins: number;
}

/**
 * Reads a stored snapshot (untrusted JSON); never throws. A wrong envelope (not an object, another
 * `version`, no `savedAt` number, no `plugins` array) is `Left(InvalidSnapshot)`. Plugins that do not
 * decode are left out and counted, so one damaged entry does not lose the rest. Decoded plugins hold
 * only the snapshot fields, whatever else was stored.
 */
export const decodeSnapshot = (stored: unknown): E.Either<InvalidSnapshot, DecodedSnapshot> => {
  const envelope = Envelope.decode(stored);
  if (E.isLeft(envelope)) {
    return E.left({ _tag: 'InvalidSnapshot', issues: decodeIssues(envelope.left), message: 'The stored plugin inventory snapshot is not readable' });
  }
  const plugins: PluginSnapshot[] = [];
  let droppedPlugins = 0;
  for (const item of envelope.right.plugins) {
    const decoded = PluginSnapshot.decode(item);
    if (E.isRight(decoded)) plugins.push(decoded.right);
    else droppedPlugins += 1;
  }
  return E.right({ snapshot: { version: SNAPSHOT_VERSION, savedAt: envelope.right.savedAt, plugins }, droppedPlugins });
};
