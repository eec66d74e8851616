/**
 * The marketplace pages' typed errors as the host sees them (through `@wework/host-errors`, which the
 * handlers call): each has its host error code, and a message never names the marketplace or plugin the
 * host asked for, valid identity or not (issue 31: no string of the request in an error message).
 */
import { describe, expect, it } from 'vitest';
import { marketplaceFailure, type MarketplaceFault } from '@wework/host-errors';
import { HostErrorCode } from '@wework/host-protocol';

const code = (error: MarketplaceFault): number => marketplaceFailure(error).code;
const message = (error: MarketplaceFault): string => marketplaceFailure(error).message;

describe('marketplace errors', () => {
  it('answers each typed error with its code', () => {
    expect(code({ _tag: 'MarketplaceNotFound', name: 'x' })).toBe(HostErrorCode.MarketplaceNotFound);
    expect(code({ _tag: 'OfficialNotEditable', name: 'openai-curated-remote' })).toBe(HostErrorCode.MarketplaceNotEditable);
    expect(code({ _tag: 'ReorderRefused', reason: { _tag: 'MissingMarketplace', name: 'a' } })).toBe(HostErrorCode.MarketplaceNotEditable);
    expect(code({ _tag: 'MarketplaceRefused', reason: 'InvalidSource' })).toBe(HostErrorCode.MarketplaceRefused);
    expect(code({ _tag: 'CatalogPluginNotFound', marketplace: 'm', plugin: 'p' })).toBe(HostErrorCode.CatalogPluginNotFound);
    expect(code({ _tag: 'CatalogUnavailable', reason: 'Superseded' })).toBe(HostErrorCode.CatalogUnavailable);
    expect(code({ _tag: 'OfficialUnavailable', reason: 'OfficialNotListed' })).toBe(HostErrorCode.CatalogUnavailable);
    expect(code({ _tag: 'PreferencesUnwritable', reason: 'ENOSPC' })).toBe(HostErrorCode.InternalError);
  });

  it('echoes no name the host sent, valid identity segment or not', () => {
    for (const name of ['team-tools', '../../etc', 'a b', '<script>', 'x'.repeat(200), 'tok=CANARY\n']) {
      expect(message({ _tag: 'MarketplaceNotFound', name })).not.toContain(name);
      expect(message({ _tag: 'CatalogPluginNotFound', marketplace: name, plugin: name })).not.toContain(name);
      expect(message({ _tag: 'ReorderRefused', reason: { _tag: 'UnknownMarketplace', name } })).not.toContain(name);
    }
  });
});
