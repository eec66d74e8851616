import { describe, expect, it } from 'vitest';
import { configDiff } from '../src/index.js';

describe('configDiff', () => {
  it('gives the changed leaves, a missing file as an empty document, and null for text that is not TOML', () => {
    expect(configDiff('a = 1\n[t]\nb = 2\n', 'a = 1\n[t]\nb = 3\nc = 4\n')).toEqual([['t', 'b'], ['t', 'c']]);
    expect(configDiff(null, 'a = 1\n')).toEqual([['a']]);
    expect(configDiff('a = 1\n', 'a = 1\n')).toEqual([]);
    expect(configDiff('a = "x\n', null)).toBeNull();
  });

  it('reports a change inside an atomic table once, at the table', () => {
    const atomic = (path: ReadonlyArray<string>): boolean => path.length === 2 && path[0] === 'plugins';
    expect(configDiff('', '[plugins."a@m"]\nenabled = true\nx = 1\n', { atomic })).toEqual([['plugins', 'a@m']]);
  });
});
