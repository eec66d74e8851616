import { describe, expect, it } from 'vitest';
import * as config from '../../src/config/index.js';

describe('public API of the config module', () => {
  it('pins the runtime exports of src/config/index.ts', () => {
    expect(Object.keys(config).sort()).toEqual(
      [
        'DEFAULT_INTERACTION_STYLE',
        'DEFAULT_PERSONALITY_LINE',
        'INTERACTION_STYLES',
        'ROUTING_BLOCK_BEGIN',
        'ROUTING_BLOCK_END',
        'composeDeveloperInstructions',
        'customInstructionsEdit',
        'developerInstructionsEdit',
        'freshConfigText',
        'importNativeConfig',
        'mergeLegacyInstructions',
        'normalizeConfig',
        'personalityEdit',
        'splitDeveloperInstructions',
        'userCopyOf',
        'withRoutingInstructions',
      ].sort(),
    );
  });
});
