import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/config-toml', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'UNKNOWN_TOML_REASON',
        'appendTable',
        'applyConfigEdits',
        'applyVerified',
        'configDiff',
        'configEdits',
        'editNotVerified',
        'findStatement',
        'findTable',
        'formatKeyPath',
        'insertLine',
        'malformedConfig',
        'malformedConfigFrom',
        'parseKeyPath',
        'parseToml',
        'readDocument',
        'removeKey',
        'removeStatement',
        'removeTable',
        'renameKey',
        'replaceValue',
        'rootSection',
        'setKey',
        'statementLine',
        'statementsUnder',
        'tomlErrorReason',
        'tomlValueText',
        'unsupportedLayout',
      ].sort(),
    );
  });

  it('pins the exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(['configDocumentArbitrary', 'stringContentArbitrary', 'writeTomlString']);
  });
});
