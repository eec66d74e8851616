/**
 * `Reload` (the per-thread config overrides changed): laws over random scripts on a fake clock — only an
 * idle thread is released, for `reload`, and nothing else changes — and the sequence a host drives: a
 * released thread's next follow-up resumes it.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LifecycleCommand, makeThreadLifecycle, threadStatus } from '../src/index.js';
import { LifecycleEvent } from '../src/LifecycleEvent.js';
import { initialState, transition } from '../src/ThreadLifecycle.js';
import { runWithFakeClock, timedEventsArbitrary } from '../src/testing.js';

const RUNS = { numRuns: 400 };
const withReloads = timedEventsArbitrary({ maxLength: 80, events: { threadStarted: true, archiveInCodex: true, reload: true } });

describe('Reload (random scripts, fake clock)', () => {
  it('releases exactly an idle thread, for reload, and leaves every other thread as it was', () => {
    let released = 0;
    fc.assert(
      fc.property(withReloads, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          if (step.event._tag !== 'Reload') continue;
          const { threadId } = step.event;
          // The deadlines that fell due are released first, as before every event.
          const [expired] = transition(step.before, LifecycleEvent.tick(), step.now);
          const wasIdle = expired.threads.get(threadId)?._tag === 'Idle';
          const reloads = step.commands.filter((command) => command._tag === 'Unsubscribe' && command.reason === 'reload');
          expect(reloads).toEqual(wasIdle ? [LifecycleCommand.unsubscribe(threadId, 'reload')] : []);
          if (wasIdle) released += 1;
          expect(threadStatus(step.after, threadId)).toBe(wasIdle ? 'Unsubscribing' : threadStatus(expired, threadId));
          for (const [other, record] of expired.threads) if (other !== threadId) expect(step.after.threads.get(other)).toEqual(record);
        }
      }),
      RUNS,
    );
    // The scripts do reach idle threads (about one reload in ten lands on one).
    expect(released).toBeGreaterThan(5);
  });

  it('never releases for reload on any other event', () => {
    fc.assert(
      fc.property(withReloads, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          if (step.event._tag === 'Reload') continue;
          expect(step.commands.filter((command) => command._tag === 'Unsubscribe' && command.reason === 'reload')).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});

describe('Reload, step by step', () => {
  it('an idle thread is released, and its next follow-up resumes it', () => {
    const host = makeThreadLifecycle();
    host.turnStarted('t', 0);
    host.turnCompleted('t', 10);
    expect(host.reload('t', 20)).toEqual([LifecycleCommand.unsubscribe('t', 'reload')]);
    expect(host.nextDeadline()).toBeNull();
    expect(host.unsubscribed('t', 30)).toEqual([]);
    expect(host.followUp('t', 40)).toEqual([LifecycleCommand.resume('t')]);
    expect(host.status('t')).toBe('Starting');
  });

  it('a follow-up reported while the reload is being unsubscribed still resumes the thread', () => {
    const host = makeThreadLifecycle();
    host.turnStarted('t', 0);
    host.turnCompleted('t', 10);
    host.reload('t', 20);
    expect(host.followUp('t', 25)).toEqual([LifecycleCommand.resume('t')]);
  });

  it('a new, running, starting or unloaded thread is left as it is', () => {
    let [state] = transition(initialState(), LifecycleEvent.threadStarted('new'), 0);
    [state] = transition(state, LifecycleEvent.turnStarted('running'), 1);
    [state] = transition(state, LifecycleEvent.turnStarted('starting'), 2);
    [state] = transition(state, LifecycleEvent.turnCompleted('starting'), 3);
    [state] = transition(state, LifecycleEvent.followUp('starting'), 4);
    for (const id of ['new', 'running', 'starting', 'never-seen']) {
      const [after, commands] = transition(state, LifecycleEvent.reload(id), 5);
      expect(commands).toEqual([]);
      expect(after.threads).toEqual(state.threads);
    }
  });
});
