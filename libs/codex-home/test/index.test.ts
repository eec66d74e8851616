import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

const sorted = (names: ReadonlyArray<string>): string[] => [...names].sort();

describe('public API of @wework/codex-home', () => {
  it('pins the runtime exports of "." (this module\'s own, plus the config module\'s)', () => {
    expect(sorted(Object.keys(api))).toEqual([
      'DEFAULT_MIGRATION_CHOICE',
      'REMOTE_APPS_DEFAULT',
      'WEGENT_CODEX_HOME',
      'applyMigration',
      'checkSwitchAllowed',
      'codexHome',
      'composeDeveloperInstructions',
      'customInstructionsEdit',
      'detectFirstStart',
      'developerInstructionsEdit',
      'ensureCodexHome',
      'finishAddAccount',
      'freshConfigText',
      'importNativeConfig',
      'linkNativeAuth',
      'listAccounts',
      'loginCompleted',
      'normalizeConfig',
      'personalityEdit',
      'prepareConfig',
      'prepareHomeForStart',
      'readAccountIndex',
      'remoteAppsEdit',
      'resolveCodexHome',
      'setRemoteApps',
      'startAddAccount',
      'switchAccount',
      'userCopyOf',
      'withRoutingInstructions',
    ]);
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
