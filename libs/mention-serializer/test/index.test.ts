/**
 * Pins the runtime exports of the library's entry points: a change to the public API shows up
 * here as a diff.
 */
import { describe, expect, test } from 'vitest';
import * as index from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API', () => {
  test('index.ts', () => {
    expect(Object.keys(index).sort()).toEqual([
      'app',
      'decodeDocument',
      'normalize',
      'parse',
      'plugin',
      'serialize',
      'serializeWithRanges',
      'sigilOf',
      'skill',
      'text',
      'toCodexTurnInput',
      'toTurnInput',
      'tokenize',
      'validateDocument',
    ]);
  });

  test('testing.ts', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'absoluteSkillPathArbitrary',
      'appMentionArbitrary',
      'documentArbitrary',
      'mentionArbitrary',
      'nonEmptyTrickyStringArbitrary',
      'pluginMentionArbitrary',
      'skillMentionArbitrary',
      'textSegmentArbitrary',
      'trickyCharArbitrary',
      'trickyStringArbitrary',
    ]);
  });
});
