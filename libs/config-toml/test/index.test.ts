import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/config-toml', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'applyConfigEdits',
      'applyVerified',
      'configDiff',
      'configEdits',
      'editNotVerified',
      'findStatement',
      'formatKeyPath',
      'insertLine',
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
    ]);
  });

  it('pins the exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(['configDocumentArbitrary', 'stringContentArbitrary', 'writeTomlString']);
  });
});
