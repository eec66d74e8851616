import { describe, expect, it } from 'vitest';
import {
  composeDeveloperInstructions,
  customInstructionsEdit,
  DEFAULT_INTERACTION_STYLE,
  developerInstructionsEdit,
  INTERACTION_STYLES,
  personalityEdit,
} from '../../src/config/index.js';

describe('config/batchWrite edits', () => {
  it('set personality with replace', () => {
    expect(INTERACTION_STYLES.map(personalityEdit)).toEqual([
      { keyPath: 'personality', value: 'friendly', mergeStrategy: 'replace' },
      { keyPath: 'personality', value: 'pragmatic', mergeStrategy: 'replace' },
    ]);
    expect(DEFAULT_INTERACTION_STYLE).toBe('pragmatic');
  });

  it('set developer_instructions with replace', () => {
    expect(developerInstructionsEdit('Be brief.')).toEqual({ keyPath: 'developer_instructions', value: 'Be brief.', mergeStrategy: 'replace' });
    expect(customInstructionsEdit('Be brief.', 'routing')).toEqual(developerInstructionsEdit(composeDeveloperInstructions('Be brief.', 'routing')));
  });
});
