import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { formatPluginRef, marketplaceForVisibility } from '../src/index.js';
import {
  BUILTIN_APPLICATION_PLUGINS,
  canonicalVisibility,
  cloudPluginRef,
  marketplaceOutdated,
  VISIBILITIES,
  visibilityForMarketplace,
} from '../src/MarketplaceIdentity.js';
import { pluginNameArbitrary, visibilityArbitrary } from '../src/testing.js';

describe('marketplace identity', () => {
  it('maps each visibility to its marketplace', () => {
    expect(marketplaceForVisibility('personal')).toBe('wework-personal');
    expect(marketplaceForVisibility('workspace')).toBe('wegent');
    expect(marketplaceForVisibility('public')).toBe('wework');
  });

  it('the mapping is one-to-one', () => {
    for (const visibility of VISIBILITIES) expect(visibilityForMarketplace(marketplaceForVisibility(visibility))).toBe(visibility);
    expect(visibilityForMarketplace('openai-curated')).toBeNull();
    expect(new Set(VISIBILITIES.map(marketplaceForVisibility)).size).toBe(3);
  });

  it('treats a system-owned built-in stored as public as a legacy workspace row', () => {
    for (const pluginName of BUILTIN_APPLICATION_PLUGINS) {
      expect(canonicalVisibility({ pluginName, ownerUserId: 0, visibility: 'public' })).toBe('workspace');
      const ref = cloudPluginRef({ pluginName, ownerUserId: 0, visibility: 'public' });
      expect(E.map(formatPluginRef)(ref)).toEqual(E.right(`plugin://${pluginName}@wegent`));
    }
  });

  it('keeps public for other owners and other plugins, and never changes personal or workspace', () => {
    expect(canonicalVisibility({ pluginName: 'wegent-sites', ownerUserId: 7, visibility: 'public' })).toBe('public');
    expect(canonicalVisibility({ pluginName: 'my-plugin', ownerUserId: 0, visibility: 'public' })).toBe('public');
    fc.assert(
      fc.property(pluginNameArbitrary, fc.integer({ min: 0, max: 10 }), visibilityArbitrary, (pluginName, ownerUserId, visibility) => {
        const canonical = canonicalVisibility({ pluginName, ownerUserId, visibility });
        const legacy = visibility === 'public' && ownerUserId === 0 && BUILTIN_APPLICATION_PLUGINS.includes(pluginName);
        expect(canonical).toBe(legacy ? 'workspace' : visibility);
      }),
    );
  });

  it('flags installed rows whose source marketplace no longer matches the visibility', () => {
    expect(marketplaceOutdated('wework', 'workspace')).toBe(true);
    expect(marketplaceOutdated('wegent', 'workspace')).toBe(false);
    fc.assert(
      fc.property(visibilityArbitrary, visibilityArbitrary, (stored, current) => {
        expect(marketplaceOutdated(marketplaceForVisibility(stored), current)).toBe(stored !== current);
      }),
    );
  });

  it('rejects an invalid plugin name', () => {
    expect(E.isLeft(cloudPluginRef({ pluginName: 'bad name', ownerUserId: 3, visibility: 'personal' }))).toBe(true);
  });
});
