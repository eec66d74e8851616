import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/plugin-inventory', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'BUILTIN_APPLICATION_PLUGINS',
        'CATALOG_TTL_MS',
        'CLOUD_MARKETPLACES',
        'DROPPED_FIELDS',
        'FIRST_RETRY_DELAY_MS',
        'KNOWN_MANIFEST_KEYS',
        'MAX_RETRY_DELAY_MS',
        'MarketplaceName',
        'PluginManifest',
        'PluginManifestInterface',
        'PluginName',
        'PluginRefFromString',
        'PluginRefObject',
        'PluginSnapshot',
        'RECEIPT_WINDOW_MS',
        'SNAPSHOT_VERSION',
        'SYSTEM_USER_ID',
        'StoredInstallReceipt',
        'VISIBILITIES',
        'Visibility',
        'afterReload',
        'attemptFailed',
        'attemptSucceeded',
        'canonicalVisibility',
        'catalogCacheKeyId',
        'cloudPluginRef',
        'configTomlChanges',
        'decideHotReload',
        'decodeReceipts',
        'decodeSnapshot',
        'dropReceipt',
        'encodeReceipts',
        'encodeSnapshot',
        'findUninstallTarget',
        'formatPluginRef',
        'inspectManifest',
        'isDue',
        'isOwnConfigChange',
        'makeOfficialCatalogCache',
        'marketplaceForVisibility',
        'marketplaceOutdated',
        'mergeInventory',
        'nextAttemptAt',
        'parsePluginKey',
        'parsePluginRef',
        'pluginKey',
        'pluginRef',
        'projectPlugin',
        'pruneReceipts',
        'receiptActive',
        'receiptExpiresAt',
        'recordReceipt',
        'removalFromRecord',
        'removalToRecord',
        'requestRemoval',
        'retryDelay',
        'samePlugin',
        'snapshotInventory',
        'startAttempt',
        'visibilityForMarketplace',
        'withoutPlugin',
      ].sort(),
    );
  });

  it('pins the runtime exports of "./node"', () => {
    expect(Object.keys(node).sort()).toEqual(['commitAndDecide', 'inspectInstalledPlugin']);
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(
      [
        'catalogCacheKeyArbitrary',
        'inventoryPluginArbitrary',
        'makeControlledFetch',
        'makeFakeClock',
        'marketplaceNameArbitrary',
        'pluginNameArbitrary',
        'pluginRefArbitrary',
        'pureSkillPluginArbitrary',
        'receiptArbitrary',
        'timeArbitrary',
        'visibilityArbitrary',
      ].sort(),
    );
  });
});
