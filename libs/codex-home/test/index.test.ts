import { describe, expect, it } from 'vitest';
import * as configApi from '../src/config/index.js';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

const sorted = (names: ReadonlyArray<string>): string[] => [...names].sort();

describe('public API of @wework/codex-home', () => {
  it('pins the runtime exports of "." (this module\'s own, plus the config module\'s)', () => {
    expect(sorted(Object.keys(api))).toEqual(
      sorted([
        ...Object.keys(configApi),
        'ACCOUNT_INDEX_FILE',
        'ACCOUNT_PROFILES_DIRECTORY',
        'AccountIndex',
        'CODEX_HOME_DIRECTORY',
        'ConfigSource',
        'DEFAULT_MIGRATION_CHOICE',
        'HOME_STATE_FILE',
        'HomeState',
        'MAX_CLAIM_LENGTH',
        'REMOTE_APPS_DEFAULT',
        'REMOTE_APPS_KEY_PATH',
        'SNAPSHOT_NAME_PATTERN',
        'SavedAccount',
        'SnapshotName',
        'WEGENT_CODEX_HOME',
        'applyMigration',
        'checkSwitchAllowed',
        'codexHome',
        'decodeAccountIndex',
        'decodeAuthFile',
        'decodeHomeState',
        'decodeIdTokenClaims',
        'detectFirstStart',
        'emptyAccountIndex',
        'encodeAccountIndex',
        'encodeHomeState',
        'ensureCodexHome',
        'finishAddAccount',
        'identifyAuth',
        'layoutOf',
        'linkNativeAuth',
        'listAccounts',
        'loadAccountIndex',
        'loginCompleted',
        'prepareConfig',
        'prepareHomeForStart',
        'readAccountIndex',
        'readAuthDigest',
        'readRemoteApps',
        'remoteAppsEdit',
        'resolveCodexHome',
        'saveActiveAccount',
        'setRemoteApps',
        'startAddAccount',
        'switchAccount',
        'writeDestinationOf',
      ]),
    );
  });

  it('pins the runtime exports of "./testing" (its own names only)', () => {
    expect(sorted(Object.keys(testing))).toEqual(
      sorted([
        'accountIndexArbitrary',
        'apiKeyAuthJson',
        'authJsonArbitrary',
        'chatGptAuthJson',
        'chatGptLoginArbitrary',
        'failingPort',
        'fakeIdToken',
        'savedAccountArbitrary',
      ]),
    );
  });

  it('pins the runtime exports of "./node"', () => {
    expect(sorted(Object.keys(node))).toEqual(['nodeCodexHome']);
  });
});
