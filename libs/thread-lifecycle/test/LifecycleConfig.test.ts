import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIFECYCLE_CONFIG, lifecycleConfig, type LifecycleOptions } from '../src/LifecycleConfig.js';

describe('lifecycleConfig', () => {
  it('defaults to the spec: 30 minutes, four idle threads', () => {
    expect(lifecycleConfig()).toEqual(E.right({ idleTimeoutMs: 1_800_000, maxIdleThreads: 4 }));
    expect(DEFAULT_LIFECYCLE_CONFIG).toEqual({ idleTimeoutMs: 1_800_000, maxIdleThreads: 4 });
  });

  it('takes any positive timeout and non-negative integer cap', () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: 1e12, noNaN: true }), fc.nat(), (idleTimeoutMs, maxIdleThreads) => {
        expect(lifecycleConfig({ idleTimeoutMs, maxIdleThreads })).toEqual(E.right({ idleTimeoutMs, maxIdleThreads }));
      }),
    );
  });

  it.each<[LifecycleOptions, string]>([
    [{ idleTimeoutMs: 0 }, 'idleTimeoutMs'],
    [{ idleTimeoutMs: -1 }, 'idleTimeoutMs'],
    [{ idleTimeoutMs: Number.NaN }, 'idleTimeoutMs'],
    [{ idleTimeoutMs: Number.POSITIVE_INFINITY }, 'idleTimeoutMs'],
    [{ idleTimeoutMs: '1800000' as unknown as number }, 'idleTimeoutMs'],
    [{ maxIdleThreads: -1 }, 'maxIdleThreads'],
    [{ maxIdleThreads: 1.5 }, 'maxIdleThreads'],
    [{ maxIdleThreads: Number.NaN }, 'maxIdleThreads'],
    [{ maxIdleThreads: null as unknown as number }, 'maxIdleThreads'],
  ])('rejects %j as a value, naming %s', (options, field) => {
    const result = lifecycleConfig(options);
    expect(result).toMatchObject(E.left({ _tag: 'InvalidLifecycleConfig', field }));
    if (E.isLeft(result)) expect(result.left.message).toMatch(new RegExp(`^${field} must be `));
  });
});
