import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/sync-transaction', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'Journal', 'JournalPublication', 'Manifest', 'ManifestRecord', 'OwnedCache', 'PACKAGE_DIRECTORY_MODE',
        'PackageEntry', 'PublicationKind', 'acquireLock', 'cacheDirectoryOf', 'claudeSideOf', 'checkIdentifier', 'checkPluginId', 'commitChange', 'compareBundled',
        'decodeJournal', 'decodeManifest', 'directoriesToRead', 'editClaudeInstalledPlugins', 'editClaudeKnownMarketplaces', 'editClaudeSettings',
        'editCodexMarketplace', 'emptyManifest', 'encodeJournal', 'executeSteps', 'fileDigest', 'filesToRead', 'finish',
        'isUninstalled', 'journalKeyOf', 'layoutOf', 'manifestPath', 'normalizedFileMode', 'ownsCache',
        'packageDigest', 'planChange', 'readClaudeEnablement', 'readCodexEnablement', 'readManifest', 'recordOf', 'recoverAll',
        'recoverPlugin', 'rollBack', 'runtimeHomes', 'setCodexEnablement', 'stepsOf', 'sweepJournalTemps', 'sweepLockTemps', 'treeDigest', 'upgradeBundled',
        'validatePackage', 'withRecord',
        'DEFAULT_INTAKE_LIMITS', 'StagedContent', 'admitCopiedBytes', 'admitEntry', 'emptyTally', 'entryKindOf', 'intakeLimits', 'normalizedDirectoryMode',
        'packageRefused', 'sameIdentity',
        'InstalledFor', 'MANIFEST_VERSION', 'ManifestV1', 'PackageRecord', 'RecordedEnablement', 'decodeManifestValue', 'encodeManifest', 'migrateManifest',
        'updateRecord', 'packageDirectoryOf', 'packageStorePath', 'PLUGIN_MANIFEST_FILE', 'checkRecoveryPackage', 'currentCachesOf', 'decideDirectoryRecovery',
        'rebuildEnablement', 'repairsOf', 'recoverDirectories',
      ].sort(),
    );
  });

  it('pins the runtime exports of "./node"', () => {
    expect(Object.keys(node).sort()).toEqual(['acquireProcessLock', 'commitAndDecide', 'createNodeFileSystem', 'createNodeHost', 'createNodePorts', 'directoryPackageSource', 'inspectInstalledPlugin', 'processStartTime']);
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'hostilePathArbitrary', 'linkTargetArbitrary', 'packageArbitrary', 'packageEntryArbitrary', 'relativePathArbitrary',
    ]);
  });
});
