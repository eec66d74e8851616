/**
 * Plugin identity: a plugin is named by its plugin name and its marketplace name, written
 * `plugin://name@marketplace` (mentions, stable references) or `name@marketplace` (the key Codex uses
 * in `config.toml` and its plugin ids). Both names follow Codex's rule for plugin id segments:
 * non-empty, only ASCII letters, digits, `_` and `-`. A display name is never part of the identity.
 *
 * Every function here is pure: strings in, values out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The brand of a valid plugin name. */
export interface PluginNameBrand {
  readonly PluginName: unique symbol;
}

/** The brand of a valid marketplace name. */
export interface MarketplaceNameBrand {
  readonly MarketplaceName: unique symbol;
}

/** A plugin name: non-empty, only ASCII letters, digits, `_` and `-`. */
export const PluginName = t.brand(
  t.string,
  (s): s is t.Branded<string, PluginNameBrand> => SEGMENT.test(s),
  'PluginName',
);
/** A validated plugin name. */
export type PluginName = t.TypeOf<typeof PluginName>;

/** A marketplace name: non-empty, only ASCII letters, digits, `_` and `-`. */
export const MarketplaceName = t.brand(
  t.string,
  (s): s is t.Branded<string, MarketplaceNameBrand> => SEGMENT.test(s),
  'MarketplaceName',
);
/** A validated marketplace name. */
export type MarketplaceName = t.TypeOf<typeof MarketplaceName>;

/**
 * A plugin's identity: its name within one marketplace, the one identity every library and app uses
 * (the inventory, the sync transaction's journals and manifest, both executors). {@link pluginRef},
 * {@link parsePluginKey} and {@link PluginRefObject} give only references whose names follow Codex's
 * segment rule ({@link PluginName}, {@link MarketplaceName}); a place that stores plugins on disk may
 * check its own rule as well (the sync transaction's file-name-safe identifiers).
 * @example
 * ```ts
 * const ref: PluginRef = { name: 'wegent-sites', marketplace: 'wegent' };
 * pluginKey(ref); // 'wegent-sites@wegent'
 * ```
 */
export interface PluginRef {
  readonly name: string;
  readonly marketplace: string;
}

/** Codec of a {@link PluginRef} as an object `{ name, marketplace }` with validated names. */
export const PluginRefObject: t.Type<PluginRef, { readonly name: string; readonly marketplace: string }, unknown> = (() => {
  const validated = t.readonly(t.type({ name: PluginName, marketplace: MarketplaceName }), 'PluginRef');
  return new t.Type<PluginRef, { readonly name: string; readonly marketplace: string }, unknown>(
    validated.name,
    (u): u is PluginRef => validated.is(u),
    (u, context) => validated.validate(u, context),
    (ref) => ref,
  );
})();

/** Why a string is not a plugin reference. */
export interface InvalidPluginRef {
  readonly _tag: 'InvalidPluginRef';
  /** The rejected input, cut to 200 characters. */
  readonly input: string;
  readonly message: string;
}

const invalidPluginRef = (input: string, why: string): InvalidPluginRef => {
  const shown = input.length > 200 ? `${input.slice(0, 200)}…` : input;
  return { _tag: 'InvalidPluginRef', input: shown, message: `${JSON.stringify(shown)} is not a plugin reference: ${why}` };
};

const SCHEME = 'plugin://';

/**
 * Builds a reference from a plugin name and a marketplace name, validating both.
 * @example
 * ```ts
 * pluginRef('wegent-sites', 'wegent'); // Right({ name: 'wegent-sites', marketplace: 'wegent' })
 * pluginRef('Sites!', 'wegent');       // Left({ _tag: 'InvalidPluginRef', ... })
 * ```
 */
export const pluginRef = (name: string, marketplace: string): E.Either<InvalidPluginRef, PluginRef> => {
  if (!PluginName.is(name)) return E.left(invalidPluginRef(`${name}@${marketplace}`, 'the plugin name may only use ASCII letters, digits, _ and - (and not be empty)'));
  if (!MarketplaceName.is(marketplace)) {
    return E.left(invalidPluginRef(`${name}@${marketplace}`, 'the marketplace name may only use ASCII letters, digits, _ and - (and not be empty)'));
  }
  return E.right({ name, marketplace });
};

/**
 * Parses the key form `name@marketplace` (Codex's plugin id and `config.toml` key).
 * @example
 * ```ts
 * parsePluginKey('wegent-sites@wegent'); // Right({ name: 'wegent-sites', marketplace: 'wegent' })
 * ```
 */
export const parsePluginKey = (key: string): E.Either<InvalidPluginRef, PluginRef> => {
  const at = key.indexOf('@');
  if (at < 0) return E.left(invalidPluginRef(key, 'expected <plugin>@<marketplace>'));
  return pluginRef(key.slice(0, at), key.slice(at + 1));
};

/**
 * The key form `name@marketplace` of a reference: Codex's plugin id, its `config.toml` key, and the key
 * of the sync transaction's manifest records and journal files.
 * @example
 * ```ts
 * pluginKey({ name: 'wegent-sites', marketplace: 'wegent' }); // 'wegent-sites@wegent'
 * ```
 */
export const pluginKey = (ref: PluginRef): string => `${ref.name}@${ref.marketplace}`;

/**
 * Parses `plugin://name@marketplace`. Nothing else is accepted: no surrounding spaces, no query,
 * no path, exactly one `@`.
 * @example
 * ```ts
 * parsePluginRef('plugin://wegent-sites@wegent'); // Right({ name: 'wegent-sites', marketplace: 'wegent' })
 * parsePluginRef('plugin://Sites');               // Left(InvalidPluginRef)
 * ```
 */
export const parsePluginRef = (input: string): E.Either<InvalidPluginRef, PluginRef> =>
  input.startsWith(SCHEME) ? parsePluginKey(input.slice(SCHEME.length)) : E.left(invalidPluginRef(input, 'expected plugin://<plugin>@<marketplace>'));

/**
 * Formats a reference as `plugin://name@marketplace`; `parsePluginRef(formatPluginRef(ref))` gives
 * `ref` back.
 */
export const formatPluginRef = (ref: PluginRef): string => `${SCHEME}${pluginKey(ref)}`;

/** Codec between the string `plugin://name@marketplace` and a {@link PluginRef}. */
export const PluginRefFromString: t.Type<PluginRef, string, unknown> = new t.Type<PluginRef, string, unknown>(
  'PluginRefFromString',
  (u): u is PluginRef => PluginRefObject.is(u),
  (u, context) => {
    if (typeof u !== 'string') return t.failure(u, context, 'expected a string');
    const parsed = parsePluginRef(u);
    return E.isRight(parsed) ? t.success(parsed.right) : t.failure(u, context, parsed.left.message);
  },
  formatPluginRef,
);

/** Whether two references name the same plugin (same plugin name and same marketplace). */
export const samePlugin = (a: PluginRef, b: PluginRef): boolean => a.name === b.name && a.marketplace === b.marketplace;
