import { describe, expect, it } from 'vitest';
import { collectedAfterGc } from '../src/index.js';

describe('collectedAfterGc', () => {
  it('tells an object nothing holds from one still held', async () => {
    const held = { name: 'held' };
    const dropped = (): WeakRef<object> => new WeakRef({ name: 'dropped' });
    expect(await collectedAfterGc([dropped(), new WeakRef(held)])).toEqual([true, false]);
    expect(held.name).toBe('held');
  });
});
