/**
 * The Codex plugin manifest, `.codex-plugin/plugin.json`, as far as the inventory and the hot-reload
 * decision need it. Codex reads `name`, `version`, `description`, `keywords`, the component
 * declarations `skills` (a `./` path or a list of them), `mcpServers` (a path or an inline map),
 * `apps` (a path), `hooks` (a path, paths, an inline hooks file or a list of them) and the
 * presentation block `interface`. Claude-compatible metadata (`author`, `homepage`, `repository`,
 * `license`) is accepted and carries no capability. Any other top-level key is an unknown
 * capability: something this library cannot vouch for.
 *
 * Codex rejects a manifest whose known fields have the wrong JSON type; so does this codec.
 *
 * Every function here is pure; decoding never throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describeKind, type DecodeIssue } from '@wework/decode-issues';
import { decodeIssues } from './internal/decodeIssues.js';

const optionalString = t.union([t.string, t.null, t.undefined]);

/** Codec of the manifest's `interface` block (presentation only). */
export const PluginManifestInterface = t.partial(
  {
    displayName: optionalString,
    shortDescription: optionalString,
    longDescription: optionalString,
    developerName: optionalString,
    category: optionalString,
    capabilities: t.array(t.string),
    websiteUrl: optionalString,
    privacyPolicyUrl: optionalString,
    termsOfServiceUrl: optionalString,
    /** A string or a list; Codex ignores invalid entries rather than the manifest. */
    defaultPrompt: t.unknown,
    brandColor: optionalString,
    composerIcon: optionalString,
    logo: optionalString,
    screenshots: t.array(t.string),
  },
  'PluginManifestInterface',
);

/** Codec of `.codex-plugin/plugin.json`. */
export const PluginManifest = t.partial(
  {
    name: optionalString,
    version: optionalString,
    description: optionalString,
    keywords: t.array(t.string),
    skills: t.union([t.string, t.array(t.string), t.null]),
    mcpServers: t.union([t.string, t.UnknownRecord, t.null]),
    apps: t.union([t.string, t.null]),
    hooks: t.union([t.string, t.UnknownArray, t.UnknownRecord, t.null]),
    interface: t.union([PluginManifestInterface, t.null]),
    author: t.unknown,
    homepage: t.unknown,
    repository: t.unknown,
    license: t.unknown,
  },
  'PluginManifest',
);
/** A decoded plugin manifest. */
export type PluginManifest = t.TypeOf<typeof PluginManifest>;

/** The top-level manifest keys this library understands. */
export const KNOWN_MANIFEST_KEYS: ReadonlyArray<string> = [
  'name',
  'version',
  'description',
  'keywords',
  'skills',
  'mcpServers',
  'apps',
  'hooks',
  'interface',
  'author',
  'homepage',
  'repository',
  'license',
];

/** What a manifest declares, component by component. */
export interface ManifestCapabilities {
  readonly skills: boolean;
  readonly mcpServers: boolean;
  readonly apps: boolean;
  readonly hooks: boolean;
  /** Top-level keys outside {@link KNOWN_MANIFEST_KEYS}, sorted. */
  readonly unknown: ReadonlyArray<string>;
}

/** A manifest that decoded, with what it declares. */
export interface InspectedManifest {
  readonly manifest: PluginManifest;
  /** The manifest's `name`, trimmed; `null` when empty (Codex then uses the plugin directory's name). */
  readonly name: string | null;
  /** The manifest's `version`, trimmed; `null` when absent or empty. */
  readonly version: string | null;
  readonly capabilities: ManifestCapabilities;
}

/** A manifest that is not a JSON object or has a known field of the wrong type. */
export interface InvalidManifest {
  readonly _tag: 'InvalidManifest';
  readonly issues: ReadonlyArray<DecodeIssue>;
  readonly message: string;
}

const declared = (value: unknown): boolean => {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
};

const trimmedOrNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/**
 * Decodes a manifest (parsed JSON) and lists what it declares. A declaration counts when present and
 * not empty (`null`, `""`, `[]` and `{}` declare nothing).
 * @example
 * ```ts
 * inspectManifest({ name: 'notes', version: '1.0.0', skills: './skills/' });
 * // Right({ name: 'notes', version: '1.0.0', capabilities: { skills: true, mcpServers: false, apps: false, hooks: false, unknown: [] }, ... })
 * ```
 */
export const inspectManifest = (raw: unknown): E.Either<InvalidManifest, InspectedManifest> => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return E.left({ _tag: 'InvalidManifest', issues: [{ path: '', expected: 'PluginManifest', actual: describeKind(raw) }], message: 'The plugin manifest is not a JSON object' });
  }
  const decoded = PluginManifest.decode(raw);
  if (E.isLeft(decoded)) {
    return E.left({ _tag: 'InvalidManifest', issues: decodeIssues(decoded.left), message: 'The plugin manifest has a field of the wrong type' });
  }
  const manifest = decoded.right;
  const keys = Object.keys(raw);
  return E.right({
    manifest,
    name: trimmedOrNull(manifest.name),
    version: trimmedOrNull(manifest.version),
    capabilities: {
      skills: declared(manifest.skills),
      mcpServers: declared(manifest.mcpServers),
      apps: declared(manifest.apps),
      hooks: declared(manifest.hooks),
      unknown: keys.filter((key) => !KNOWN_MANIFEST_KEYS.includes(key)).sort(),
    },
  });
};
