import type { ConfigEdit, Personality } from '@wework/codex-protocol';
import { expectTypeOf, test } from 'vitest';
import { developerInstructionsEdit, personalityEdit, type InteractionStyle } from '../../src/config/index.js';

test('the edits are protocol ConfigEdits and the styles are Codex personalities', () => {
  expectTypeOf(personalityEdit('friendly')).toExtend<ConfigEdit>();
  expectTypeOf(developerInstructionsEdit('x')).toExtend<ConfigEdit>();
  expectTypeOf<InteractionStyle>().toExtend<Personality>();
});
