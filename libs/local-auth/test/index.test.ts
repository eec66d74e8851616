import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';
import { HEALTH_TIMEOUT_MS } from '../src/Ports.js';

describe('public API of @wework/local-auth', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'HealthCache',
      'LoginSessions',
      'RecoveryGate',
      'decodeLocalAuthConnectors',
      'detectAuthRequired',
      'deviceHealth',
      'installWithAuthorization',
      'logoutOnUninstall',
      'recoverConnectorAuth',
      'recoverThroughGate',
      'startLoginSession',
    ]);
  });

  it('pins the runtime exports of "./node"', () => {
    expect(Object.keys(node).sort()).toEqual(
      ['DEFAULT_BRIDGE_ENV', 'createNodeBridgeRunner', 'currentPlatform', 'httpDownloader', 'managedToolInstaller', 'sidecarDirectory', 'toolResolver'].sort(),
    );
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(
      ['authRequiredMessageArbitrary', 'bridgeStatusArbitrary', 'localAuthJsonArbitrary', 'manifestArbitrary', 'scriptedBridgeRunner'].sort(),
    );
  });

  it('the health timeout is the spec\'s 45 seconds', () => {
    expect(HEALTH_TIMEOUT_MS).toBe(45_000);
  });
});
