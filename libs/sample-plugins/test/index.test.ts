import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public API', () => {
  it('pins the exported names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'checkPluginBuilt',
      'formsPluginCommand',
      'samplePluginCommand',
    ]);
  });
});
