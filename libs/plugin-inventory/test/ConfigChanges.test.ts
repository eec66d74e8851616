import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configTomlChanges } from '../src/index.js';

describe('configTomlChanges', () => {
  it('reports a plugin table that appears, as one change of that plugin', () => {
    expect(configTomlChanges('model = "x"\n', 'model = "x"\n\n[plugins."a@m"]\nenabled = true\n')).toEqual([{ file: 'config.toml', path: ['plugins', 'a@m'] }]);
    expect(configTomlChanges(null, '[plugins."a@m"]\nenabled = true\n')).toEqual([{ file: 'config.toml', path: ['plugins', 'a@m'] }]);
  });

  it('reports every other changed key down to its leaf, and nothing for equal documents', () => {
    expect(configTomlChanges('a = 1\n[t]\nb = 2\nc = 3\n', 'a = 1\n[t]\nb = 2\nc = 4\nd = 5\n')).toEqual([
      { file: 'config.toml', path: ['t', 'c'] },
      { file: 'config.toml', path: ['t', 'd'] },
    ]);
    expect(configTomlChanges('# comment\na = 1\n', 'a = 1 # moved comment\n')).toEqual([]);
  });

  it('is null when either side is not TOML, and never throws', () => {
    expect(configTomlChanges('a = [', 'a = 1')).toBeNull();
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: null }), fc.option(fc.string(), { nil: null }), (before, after) => {
        const changes = configTomlChanges(before, after);
        expect(changes === null || Array.isArray(changes)).toBe(true);
      }),
    );
  });
});
