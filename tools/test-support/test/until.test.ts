import { describe, expect, it } from 'vitest';
import { until } from '../src/index.js';

describe('until', () => {
  it('resolves with the first value other than undefined or false, even a falsy one, and stops polling', async () => {
    const answers: ReadonlyArray<number | undefined | false> = [undefined, false, undefined, 0, 7];
    let calls = 0;
    expect(await until('the zero', () => answers[calls++], 5_000)).toBe(0);
    expect(calls).toBe(4);
  });

  it('fails with the named message once the bound has passed, having kept polling until then', async () => {
    let calls = 0;
    const started = Date.now();
    await expect(
      until(
        'the answer that never comes',
        () => {
          calls += 1;
          return undefined;
        },
        100,
      ),
    ).rejects.toThrow(new Error('timed out waiting for the answer that never comes'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(calls).toBeGreaterThan(1);
  });
});
