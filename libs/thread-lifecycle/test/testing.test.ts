import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LifecycleCommand } from '../src/index.js';
import { LifecycleEvent } from '../src/LifecycleEvent.js';
import { lifecycleConfig } from '../src/LifecycleConfig.js';
import { gapArbitrary, lifecycleEventArbitrary, runWithFakeClock, timedEventsArbitrary } from '../src/testing.js';
import * as E from 'fp-ts/lib/Either.js';

describe('runWithFakeClock', () => {
  it('fires the one timer at each deadline before the next event, and drains on request', () => {
    const script = [
      { afterMs: 0, event: LifecycleEvent.turnStarted('a') },
      { afterMs: 10, event: LifecycleEvent.turnCompleted('a') },
      { afterMs: 0, event: LifecycleEvent.turnStarted('b') },
      { afterMs: 5, event: LifecycleEvent.turnCompleted('b') },
      { afterMs: 1_800_000, event: LifecycleEvent.followUp('b') },
    ];
    const steps = runWithFakeClock(script, { start: 100, drain: true });
    expect(steps.map((s) => [s.now, s.event._tag, s.commands])).toEqual([
      [100, 'TurnStarted', []],
      [110, 'TurnCompleted', []],
      [110, 'TurnStarted', []],
      [115, 'TurnCompleted', []],
      [1_800_110, 'Tick', [LifecycleCommand.unsubscribe('a', 'idle')]],
      [1_800_115, 'Tick', [LifecycleCommand.unsubscribe('b', 'idle')]],
      [1_800_115, 'FollowUp', [LifecycleCommand.resume('b')]],
    ]);
    expect(steps[1]?.before).toBe(steps[0]?.after);
  });

  it('uses the given configuration', () => {
    const config = lifecycleConfig({ idleTimeoutMs: 50 });
    if (E.isLeft(config)) throw new Error(config.left.message);
    const steps = runWithFakeClock([{ afterMs: 0, event: LifecycleEvent.turnStarted('a') }, { afterMs: 0, event: LifecycleEvent.turnCompleted('a') }], { config: config.right, drain: true });
    expect(steps.at(-1)).toMatchObject({ now: 50, commands: [LifecycleCommand.unsubscribe('a', 'idle')] });
  });
});

describe('arbitraries', () => {
  it('name only the given threads, and draw gaps around the timeout', () => {
    fc.assert(
      fc.property(lifecycleEventArbitrary(['x', 'y']), gapArbitrary(1_000), (event, gap) => {
        if ('threadId' in event) expect(['x', 'y']).toContain(event.threadId);
        expect(gap).toBeGreaterThanOrEqual(0);
        expect(gap).toBeLessThanOrEqual(3_000);
      }),
    );
  });

  it('scripts respect their length bounds', () => {
    fc.assert(
      fc.property(timedEventsArbitrary({ minLength: 2, maxLength: 5 }), (script) => {
        expect(script.length).toBeGreaterThanOrEqual(2);
        expect(script.length).toBeLessThanOrEqual(5);
      }),
    );
  });
});
