import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/local-auth', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AUTH_REQUIRED_CODE', 'ArchiveEntryPath', 'ArtifactFormat', 'AuthPolicy', 'isArchiveEntryPath', 'BridgeStatus', 'BundledTool', 'COMMAND_LIMITS', 'Command', 'DEFAULT_LOGIN_TIMEOUT_MS',
        'DEFAULT_MAX_STDOUT_BYTES', 'DETECTION_LIMITS', 'HEALTH_TIMEOUT_MS', 'HealthCache', 'LoginSessions', 'ManagedTool',
        'OFFICIAL_RELEASE_URLS', 'POLL_TIMEOUT_MS', 'bypassesProxy', 'proxyFor', 'RecoveryGate', 'Sha256Hex', 'Slug', 'TOOL_PATH_ENV', 'ToolArch', 'ToolArtifact',
        'ToolOs', 'ToolSource', 'ToolVersion', 'bridgeError', 'checkArgument', 'checkReleaseUrl', 'commandProblemText',
        'continuationInstruction', 'credentialFields', 'decodeLocalAuthConnectors', 'detectAuthRequired', 'detectionInput',
        'deviceHealth', 'healthKey', 'installLocation', 'installWithAuthorization', 'login', 'logoutOnUninstall', 'normalizeProgram', 'parseBridgeOutput',
        'parseCommand', 'planManagedInstall', 'policyTriggers', 'recoverConnectorAuth', 'recoverThroughGate', 'resolveTool',
        'runHealth', 'selectArtifact', 'startLoginSession',
      ].sort(),
    );
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
    expect(api.HEALTH_TIMEOUT_MS).toBe(45_000);
  });
});
