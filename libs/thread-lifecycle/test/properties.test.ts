/**
 * Laws of the lifecycle over random event scripts on a fake clock. The observer (test/observer.ts)
 * follows the rules independently and throws at the first step that breaks one; these tests add the
 * laws stated one by one, so a failure names the law.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextDeadline, type LifecycleConfig } from '../src/index.js';
import { DEFAULT_LIFECYCLE_CONFIG, lifecycleConfig } from '../src/LifecycleConfig.js';
import { idleThreads, initialState, transition } from '../src/ThreadLifecycle.js';
import type { ThreadId } from '../src/LifecycleEvent.js';
import { runWithFakeClock, timedEventsArbitrary, type DrivenStep, type TimedEvent } from '../src/testing.js';
import { Observer } from './observer.js';

const RUNS = { numRuns: 400 };

/** Runs a script with no timer at all: deadlines are noticed only when events (ticks included) arrive. */
function runWithoutTimer(script: ReadonlyArray<TimedEvent>, config: LifecycleConfig): DrivenStep[] {
  let state = initialState(config);
  let now = 0;
  return script.map(({ afterMs, event }) => {
    now += afterMs;
    const [after, commands] = transition(state, event, now);
    const step = { now, event, before: state, after, commands };
    state = after;
    return step;
  });
}

const configArbitrary: fc.Arbitrary<LifecycleConfig> = fc
  .record({ idleTimeoutMs: fc.integer({ min: 1, max: 3_600_000 }), maxIdleThreads: fc.integer({ min: 0, max: 5 }) })
  .map((options) => {
    const config = lifecycleConfig(options);
    if (E.isLeft(config)) throw new Error(config.left.message);
    return config.right;
  });

const withConfig = fc.oneof(fc.constant(DEFAULT_LIFECYCLE_CONFIG), configArbitrary).chain((config) =>
  fc.tuple(fc.constant(config), timedEventsArbitrary({ idleTimeoutMs: config.idleTimeoutMs, maxLength: 80 })),
);

/** Which threads each step leaves subscribed, as far as the commands and events show. */
function subscriptions(steps: ReadonlyArray<DrivenStep>, check: (step: DrivenStep, subscribed: Set<ThreadId>, running: Set<ThreadId>) => void): void {
  const subscribed = new Set<ThreadId>();
  const running = new Set<ThreadId>();
  for (const step of steps) {
    check(step, subscribed, running);
    const { event } = step;
    if (event._tag === 'AppServerRestarted') {
      subscribed.clear();
      running.clear();
      continue;
    }
    for (const command of step.commands) {
      if (command._tag === 'Unsubscribe') subscribed.delete(command.threadId);
      else subscribed.add(command.threadId);
    }
    if (event._tag === 'TurnStarted') {
      subscribed.add(event.threadId);
      running.add(event.threadId);
    }
    if (event._tag === 'TurnCompleted') running.delete(event.threadId);
  }
}

describe('with a fake clock and one timer armed at nextDeadline', () => {
  it('the observer finds every step within the rules (idle releases exactly at their deadline)', () => {
    const totals = { idle: 0, cap: 0, archive: 0, resume: 0, lateIdle: 0 };
    fc.assert(
      fc.property(withConfig, ([config, script]) => {
        const observer = new Observer(config, true);
        for (const step of runWithFakeClock(script, { config, drain: true })) observer.check(step);
        for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += observer.seen[key];
      }),
      RUNS,
    );
    // The scripts reach every rule, not just the easy ones.
    expect(totals.idle).toBeGreaterThan(200);
    expect(totals.cap).toBeGreaterThan(30);
    expect(totals.archive).toBeGreaterThan(50);
    expect(totals.resume).toBeGreaterThan(200);
    expect(totals.lateIdle).toBe(0);
  });

  it('never more idle subscribed threads than the cap after any event', () => {
    fc.assert(
      fc.property(withConfig, ([config, script]) => {
        for (const step of runWithFakeClock(script, { config })) expect(idleThreads(step.after).length).toBeLessThanOrEqual(config.maxIdleThreads);
      }),
      RUNS,
    );
  });

  it('no thread with a running turn is ever unsubscribed', () => {
    fc.assert(
      fc.property(withConfig, ([config, script]) => {
        subscriptions(runWithFakeClock(script, { config, drain: true }), (step, _subscribed, running) => {
          const afterEvent = new Set(running);
          if (step.event._tag === 'TurnCompleted') afterEvent.delete(step.event.threadId);
          // A turn this very event ended may be released with it (archive, or a cap of zero); no other.
          for (const command of step.commands) {
            if (command._tag === 'Unsubscribe') expect(afterEvent.has(command.threadId)).toBe(false);
          }
        });
      }),
      RUNS,
    );
  });

  it('no Unsubscribe for a thread twice without a re-subscription in between', () => {
    fc.assert(
      fc.property(withConfig, ([config, script]) => {
        subscriptions(runWithFakeClock(script, { config, drain: true }), (step, subscribed) => {
          const now = new Set(subscribed);
          for (const command of step.commands) {
            if (command._tag === 'Resume') now.add(command.threadId);
            else {
              expect(now.has(command.threadId)).toBe(true);
              now.delete(command.threadId);
            }
          }
        });
      }),
      RUNS,
    );
  });

  it('a follow-up to a thread that is not subscribed yields Resume, and after it nothing else', () => {
    fc.assert(
      fc.property(withConfig, ([config, script]) => {
        subscriptions(runWithFakeClock(script, { config }), (step, subscribed) => {
          const resumes = step.commands.filter((c) => c._tag === 'Resume');
          if (step.event._tag !== 'FollowUp') {
            expect(resumes).toEqual([]);
            return;
          }
          const id = step.event.threadId;
          const releasedNow = step.commands.some((c) => c._tag === 'Unsubscribe' && c.threadId === id);
          if (!subscribed.has(id) || releasedNow) expect(step.commands.at(-1)).toEqual({ _tag: 'Resume', threadId: id });
          else expect(resumes).toEqual([]);
          expect(resumes.length).toBeLessThanOrEqual(1);
        });
      }),
      RUNS,
    );
  });

  it('nextDeadline is the earliest idle deadline, and the timer drains to no deadline', () => {
    fc.assert(
      fc.property(withConfig, ([config, script]) => {
        const steps = runWithFakeClock(script, { config, drain: true });
        for (const step of steps) {
          const deadlines = [...step.after.threads.values()].flatMap((r) => (r._tag === 'Idle' ? [r.deadline] : []));
          expect(nextDeadline(step.after)).toBe(deadlines.length === 0 ? null : Math.min(...deadlines));
          if (deadlines.length > 0) expect(Math.min(...deadlines)).toBeGreaterThan(step.now);
        }
        const last = steps.at(-1);
        if (last !== undefined) expect(nextDeadline(last.after)).toBeNull();
      }),
      RUNS,
    );
  });
});

describe('without a timer (deadlines noticed late, by whatever event comes next)', () => {
  it('the observer finds every step within the rules (idle releases never early, never missed)', () => {
    let late = 0;
    fc.assert(
      fc.property(withConfig, ([config, script]) => {
        const observer = new Observer(config, false);
        for (const step of runWithoutTimer(script, config)) observer.check(step);
        late += observer.seen.lateIdle;
      }),
      RUNS,
    );
    expect(late).toBeGreaterThan(50);
  });
});
