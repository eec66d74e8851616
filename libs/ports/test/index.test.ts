import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/ports', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_READ_MAX_BYTES',
      'DIRECTORY_MODE',
      'PRIVATE_DIRECTORY_MODE',
      'PRIVATE_FILE_MODE',
      'backoffDelays',
      'baseNameOf',
      'fileSystemError',
      'formatLogFields',
      'isAbsolutePath',
      'isNotFound',
      'isWithin',
      'joinPath',
      'logFormatOf',
      'normalizePath',
      'parentOf',
      'platformOf',
      'renameRetryFor',
      'resolveLinkTarget',
      'samePath',
      'writeFileAtomic',
    ]);
  });

  it('pins the runtime exports of "./node"', () => {
    expect(Object.keys(node).sort()).toEqual(['forEachChunk', 'monotonicClock', 'nodeFileSystem', 'nodeTimer', 'nodeTimers', 'readSmallFile', 'renameWithRetry', 'streamLog', 'systemClock', 'withRetry'].sort());
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(
      ['DISK_FAULT_CODES', 'MemoryFileSystem', 'failingAt', 'instrumentFileSystem', 'isTemporaryName', 'leftOf', 'manualClock', 'manualTimers', 'rightOf', 'sha256Hex', 'snapshotTree', 'temporaryPathsIn'].sort(),
    );
  });
});
