import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/sync-transaction', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_INTAKE_LIMITS',
      'Manifest',
      'ManifestRecord',
      'PackageEntry',
      'cacheDirectoryOf',
      'checkIdentifier',
      'checkPluginId',
      'claudeSideOf',
      'commitChange',
      'compareBundled',
      'emptyManifest',
      'intakeLimits',
      'readManifest',
      'recordOf',
      'recoverAll',
      'recoverDirectories',
      'repairsOf',
      'upgradeBundled',
      'validatePackage',
      'withRecord',
    ]);
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
