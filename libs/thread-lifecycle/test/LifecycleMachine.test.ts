import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LifecycleCommand, makeThreadLifecycle, nextDeadline } from '../src/index.js';
import { initialState, transition } from '../src/ThreadLifecycle.js';
import { lifecycleConfig } from '../src/LifecycleConfig.js';
import type { LifecycleEvent } from '../src/LifecycleEvent.js';
import { timedEventsArbitrary } from '../src/testing.js';

describe('makeThreadLifecycle', () => {
  it('is the transition function with the state kept for you', () => {
    fc.assert(
      fc.property(timedEventsArbitrary(), (script) => {
        const lifecycle = makeThreadLifecycle();
        let state = initialState();
        let now = 0;
        for (const { afterMs, event } of script) {
          now += afterMs;
          const [next, expected] = transition(state, event, now);
          state = next;
          expect(call(lifecycle, event, now)).toEqual(expected);
          expect(lifecycle.state).toEqual(state);
          expect(lifecycle.nextDeadline()).toBe(nextDeadline(state));
        }
      }),
    );
  });

  it('names the events as methods and answers queries', () => {
    const lifecycle = makeThreadLifecycle();
    expect(lifecycle.turnStarted('t1', 0)).toEqual([]);
    expect(lifecycle.status('t1')).toBe('Running');
    expect(lifecycle.turnCompleted('t1', 5_000)).toEqual([]);
    expect(lifecycle.idleThreads()).toEqual(['t1']);
    expect(lifecycle.nextDeadline()).toBe(1_805_000);
    expect(lifecycle.tick(1_805_000)).toEqual([LifecycleCommand.unsubscribe('t1', 'idle')]);
    expect(lifecycle.unsubscribed('t1', 1_805_010)).toEqual([]);
    expect(lifecycle.status('t1')).toBe('Unloaded');
    expect(lifecycle.followUp('t1', 1_900_000)).toEqual([LifecycleCommand.resume('t1')]);
    expect(lifecycle.archive('t1', 1_900_001)).toEqual([LifecycleCommand.unsubscribe('t1', 'archive')]);
    expect(lifecycle.appServerRestarted(1_900_002)).toEqual([]);
    expect(lifecycle.status('t1')).toBe('Unloaded');
  });

  it('takes a configuration or continues from a state', () => {
    const config = lifecycleConfig({ idleTimeoutMs: 1_000, maxIdleThreads: 1 });
    if (E.isLeft(config)) throw new Error(config.left.message);
    const lifecycle = makeThreadLifecycle(config.right);
    lifecycle.turnStarted('a', 0);
    lifecycle.turnCompleted('a', 10);
    expect(lifecycle.nextDeadline()).toBe(1_010);
    const continued = makeThreadLifecycle(lifecycle.state);
    continued.turnStarted('b', 20);
    expect(continued.turnCompleted('b', 30)).toEqual([LifecycleCommand.unsubscribe('a', 'cap')]);
    expect(lifecycle.status('a')).toBe('Idle');
  });
});

function call(lifecycle: ReturnType<typeof makeThreadLifecycle>, event: LifecycleEvent, now: number) {
  switch (event._tag) {
    case 'TurnStarted':
      return lifecycle.turnStarted(event.threadId, now);
    case 'TurnCompleted':
      return lifecycle.turnCompleted(event.threadId, now);
    case 'FollowUp':
      return lifecycle.followUp(event.threadId, now);
    case 'Archive':
      return lifecycle.archive(event.threadId, now);
    case 'Unsubscribed':
      return lifecycle.unsubscribed(event.threadId, now);
    case 'AppServerRestarted':
      return lifecycle.appServerRestarted(now);
    case 'Tick':
      return lifecycle.tick(now);
  }
}
