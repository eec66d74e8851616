/**
 * `@wework/plugin-inventory/testing`: fast-check arbitraries of plugin identities, receipts, inventory
 * plugins and pure-skill plugin states, a fake clock, and a controllable catalog fetch, so hosts can
 * property-test their own use. Needs `fast-check` (an optional peer dependency).
 *
 * Every value here is pure: arbitraries describe values; fast-check supplies the randomness; the fake
 * clock only moves when told.
 */
import * as fc from 'fast-check';
import type * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '@wework/ports';
import type { PluginInstalled } from './HotReloadDecision.js';
import type { InstallReceipt } from './InstallReceipts.js';
import type { InventoryPlugin } from './InventorySnapshot.js';
import { VISIBILITIES, type Visibility } from './MarketplaceIdentity.js';
import type { CatalogCacheKey, FetchCatalog } from './OfficialCatalogCache.js';
import type { MarketplaceName, PluginName, PluginRef } from './PluginRef.js';

const segmentChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split(''));

/** A valid plugin name (ASCII letters, digits, `_`, `-`; 1–24 characters). */
export const pluginNameArbitrary: fc.Arbitrary<PluginName> = fc
  .array(segmentChars, { minLength: 1, maxLength: 24 })
  .map((chars) => chars.join('') as PluginName);

/** A valid marketplace name, including the three cloud marketplaces often. */
export const marketplaceNameArbitrary: fc.Arbitrary<MarketplaceName> = fc.oneof(
  fc.constantFrom('wework-personal', 'wegent', 'wework', 'openai-curated') as fc.Arbitrary<MarketplaceName>,
  fc.array(segmentChars, { minLength: 1, maxLength: 24 }).map((chars) => chars.join('') as MarketplaceName),
);

/** A valid plugin reference. */
export const pluginRefArbitrary: fc.Arbitrary<PluginRef> = fc.record({ name: pluginNameArbitrary, marketplace: marketplaceNameArbitrary });

/** A visibility. */
export const visibilityArbitrary: fc.Arbitrary<Visibility> = fc.constantFrom(...VISIBILITIES);

/** An epoch-ms time in a realistic range. */
export const timeArbitrary: fc.Arbitrary<number> = fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 });

/** A receipt for `ref`: timestamped (any time) or legacy (`acceptedAt: null`). */
export const receiptArbitrary = (ref: fc.Arbitrary<PluginRef> = pluginRefArbitrary): fc.Arbitrary<InstallReceipt> =>
  fc.record({ ref, acceptedAt: fc.option(timeArbitrary, { nil: null }) });

const text = fc.string({ maxLength: 40 });
const optionalText = fc.option(text, { nil: null });

/** A plugin as the in-memory inventory holds it, with every detail field filled in sometimes. */
export const inventoryPluginArbitrary: fc.Arbitrary<InventoryPlugin> = fc.record({
  ref: pluginRefArbitrary,
  installed: fc.boolean(),
  enabled: fc.boolean(),
  version: optionalText,
  description: optionalText,
  installationId: optionalText,
  interface: fc.option(
    fc.record({
      displayName: optionalText,
      shortDescription: optionalText,
      longDescription: optionalText,
      developerName: optionalText,
      category: optionalText,
      capabilities: fc.array(text, { maxLength: 3 }),
      websiteUrl: optionalText,
      privacyPolicyUrl: optionalText,
      termsOfServiceUrl: optionalText,
      defaultPrompt: fc.option(fc.array(text, { maxLength: 3 }), { nil: null }),
      brandColor: optionalText,
      composerIcon: optionalText,
      composerIconUrl: optionalText,
      logo: optionalText,
      logoUrl: optionalText,
      screenshots: fc.array(text, { maxLength: 3 }),
      screenshotUrls: fc.array(text, { maxLength: 3 }),
    }),
    { nil: null },
  ),
});

const skillName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);

/**
 * An installed, enabled, registered pure-skill plugin named `name`: a manifest with `skills` and
 * presentation only, at least one skill, no MCP servers, hooks or apps, no skill switched off.
 */
export const pureSkillPluginArbitrary = (name: string): fc.Arbitrary<PluginInstalled> =>
  fc
    .record({
      version: fc.option(fc.stringMatching(/^[0-9]\.[0-9]\.[0-9]$/), { nil: undefined }),
      skills: fc.uniqueArray(skillName, { minLength: 1, maxLength: 4 }),
      digest: fc.stringMatching(/^[0-9a-f]{16}$/),
      displayName: text,
    })
    .map(({ version, skills, digest, displayName }) => ({
      _tag: 'Installed' as const,
      manifest: {
        name,
        ...(version === undefined ? {} : { version }),
        description: 'Skills only',
        skills: './skills/',
        interface: { displayName, defaultPrompt: ['Try it'] },
      },
      packageDigest: digest,
      skills,
      mcpServers: [],
      hooks: [],
      apps: [],
      enabled: true,
      disabledSkills: [],
      registered: true,
    }));

/** A clock that only moves when told. */
export interface FakeClock extends Clock {
  /** Moves the time forward (or back, with a negative `ms`). */
  advance(ms: number): void;
  /** Sets the time. */
  set(ms: number): void;
}

/** A {@link FakeClock} starting at `start` (epoch ms). */
export const makeFakeClock = (start = 1_700_000_000_000): FakeClock => {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
    set: (ms) => {
      time = ms;
    },
  };
};

/** One call of a {@link ControlledFetch}, answered by the test when it chooses. */
export interface PendingFetch<Err, V> {
  readonly key: CatalogCacheKey;
  /** Whether the cache asked for a forced fetch (an explicit refresh). */
  readonly force: boolean;
  resolve(result: E.Either<Err, V>): void;
  reject(cause: unknown): void;
}

/** A catalog fetch whose calls wait until the test answers them. */
export interface ControlledFetch<Err, V> {
  readonly fetch: FetchCatalog<Err, V>;
  /** Every call so far, in order. */
  readonly calls: ReadonlyArray<PendingFetch<Err, V>>;
}

/** A {@link ControlledFetch}: each call returns a promise the test settles through `calls`. */
export const makeControlledFetch = <Err, V>(): ControlledFetch<Err, V> => {
  const calls: PendingFetch<Err, V>[] = [];
  return {
    calls,
    fetch: (key, options) =>
      new Promise<E.Either<Err, V>>((resolve, reject) => {
        calls.push({ key, force: options.force, resolve, reject });
      }),
  };
};

/** A catalog cache key (device, runtime instance, auth fingerprint, account) from small alphabets, so keys collide often. */
export const catalogCacheKeyArbitrary: fc.Arbitrary<CatalogCacheKey> = fc.record({
  deviceId: fc.constantFrom('device-a', 'device-b'),
  runtimeInstanceId: fc.constantFrom('runtime-1', 'runtime-2'),
  authFingerprint: fc.constantFrom('auth-x', 'auth-y'),
  accountId: fc.constantFrom('account-1', 'account-2', null),
});
