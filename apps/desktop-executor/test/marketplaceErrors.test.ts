/**
 * The marketplace pages' typed errors as the host sees them: each has its host error code, and a
 * message names the marketplace or plugin the host asked for only when it is a valid identity segment.
 */
import { describe, expect, it } from 'vitest';
import { HostErrorCode } from '@wework/host-protocol';
import { describeMarketplaceError, marketplaceFailureCode } from '../src/plugins/MarketplacePages.js';

describe('marketplace errors', () => {
  it('answers each typed error with its code', () => {
    expect(marketplaceFailureCode({ _tag: 'MarketplaceNotFound', name: 'x' })).toBe(HostErrorCode.MarketplaceNotFound);
    expect(marketplaceFailureCode({ _tag: 'OfficialNotEditable', name: 'openai-curated-remote' })).toBe(HostErrorCode.MarketplaceNotEditable);
    expect(marketplaceFailureCode({ _tag: 'ReorderRefused', reason: { _tag: 'MissingMarketplace', name: 'a' } })).toBe(HostErrorCode.MarketplaceNotEditable);
    expect(marketplaceFailureCode({ _tag: 'MarketplaceRefused', reason: 'InvalidSource' })).toBe(HostErrorCode.MarketplaceRefused);
    expect(marketplaceFailureCode({ _tag: 'CatalogPluginNotFound', marketplace: 'm', plugin: 'p' })).toBe(HostErrorCode.CatalogPluginNotFound);
    expect(marketplaceFailureCode({ _tag: 'CatalogUnavailable', reason: 'Superseded' })).toBe(HostErrorCode.CatalogUnavailable);
    expect(marketplaceFailureCode({ _tag: 'OfficialUnavailable', reason: 'OfficialNotListed' })).toBe(HostErrorCode.CatalogUnavailable);
  });

  it('echoes only names that are valid identity segments', () => {
    expect(describeMarketplaceError({ _tag: 'MarketplaceNotFound', name: 'team-tools' })).toContain('"team-tools"');
    for (const hostile of ['../../etc', 'a b', '<script>', 'x'.repeat(200), 'tok=CANARY\n']) {
      expect(describeMarketplaceError({ _tag: 'MarketplaceNotFound', name: hostile })).not.toContain(hostile);
      expect(describeMarketplaceError({ _tag: 'CatalogPluginNotFound', marketplace: hostile, plugin: hostile })).not.toContain(hostile);
    }
  });
});
