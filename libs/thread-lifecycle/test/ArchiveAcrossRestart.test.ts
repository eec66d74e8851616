/**
 * What a host that queues its commands relies on: an archive in Codex whose unsubscribe is under way
 * survives an app-server restart (the thread is still archived once the unsubscribe is answered),
 * `ArchiveThread` says whether the thread was released before the archive, and the commands of an
 * event about a `Started` thread name it only to release it (so they need no place in a queue).
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LifecycleCommand, threadStatus } from '../src/index.js';
import { LifecycleEvent } from '../src/LifecycleEvent.js';
import { initialState, transition, type LifecycleState } from '../src/ThreadLifecycle.js';
import { gapArbitrary, runWithFakeClock, timedEventsArbitrary, type TimedEvent } from '../src/testing.js';

const RUNS = { numRuns: 400 };
const extended = timedEventsArbitrary({ maxLength: 80, events: { threadStarted: true, archiveInCodex: true } });
/**
 * Thread `t` idles, is archived in Codex, then other threads' events (restarts among them, at least one)
 * come before the answer of its unsubscribe.
 */
const restartBeforeAnswer = fc
  .tuple(
    timedEventsArbitrary({ threadIds: ['o1', 'o2', 'o3'], maxLength: 20, events: { threadStarted: true, archiveInCodex: true } }),
    fc.nat({ max: 20 }),
    timedEventsArbitrary({ threadIds: ['o1', 'o2', 'o3'], maxLength: 20, events: { threadStarted: true, archiveInCodex: true } }),
    gapArbitrary(),
  )
  .map(([before, at, between, gap]): ReadonlyArray<TimedEvent> => {
    const middle = [...between];
    middle.splice(Math.min(at, middle.length), 0, { afterMs: 0, event: LifecycleEvent.appServerRestarted() });
    return [
      ...before,
      { afterMs: 0, event: LifecycleEvent.turnStarted('t') },
      { afterMs: 1, event: LifecycleEvent.turnCompleted('t') },
      { afterMs: 1, event: LifecycleEvent.archiveInCodex('t') },
      ...middle,
      { afterMs: gap, event: LifecycleEvent.unsubscribed('t') },
    ];
  });

/** The threads whose unsubscribe for an archive in Codex is under way. */
const archivesUnderWay = (state: LifecycleState): string[] =>
  [...state.threads].flatMap(([id, record]) => (record._tag === 'Unsubscribing' && record.archiveThread === true ? [id] : [])).sort();

describe('an archive in Codex across an app-server restart, step by step', () => {
  it('the restart comes between the archive and the answer of its unsubscribe: the thread is still archived after it', () => {
    let [state, commands] = transition(initialState(), LifecycleEvent.turnStarted('t'), 0);
    [state] = transition(state, LifecycleEvent.turnCompleted('t'), 10);
    [state, commands] = transition(state, LifecycleEvent.archiveInCodex('t'), 20);
    expect(commands).toEqual([LifecycleCommand.unsubscribe('t', 'archive')]);
    [state, commands] = transition(state, LifecycleEvent.appServerRestarted(), 30);
    expect(commands).toEqual([]);
    expect(threadStatus(state, 't')).toBe('Unsubscribing');
    [state, commands] = transition(state, LifecycleEvent.unsubscribed('t'), 40);
    expect(commands).toEqual([LifecycleCommand.archiveThread('t', false)]);
    expect(threadStatus(state, 't')).toBe('Unloaded');
  });

  it('other threads are unloaded by the restart as before, idle releases and plain archives included', () => {
    let [state] = transition(initialState(), LifecycleEvent.turnStarted('a'), 0);
    [state] = transition(state, LifecycleEvent.turnCompleted('a'), 1);
    [state] = transition(state, LifecycleEvent.turnStarted('b'), 2);
    [state] = transition(state, LifecycleEvent.turnCompleted('b'), 3);
    [state] = transition(state, LifecycleEvent.turnStarted('c'), 4);
    [state] = transition(state, LifecycleEvent.turnCompleted('c'), 5);
    [state] = transition(state, LifecycleEvent.archive('a'), 6);
    [state] = transition(state, LifecycleEvent.archiveInCodex('b'), 7);
    [state] = transition(state, LifecycleEvent.threadStarted('d'), 8);
    const [after, commands] = transition(state, LifecycleEvent.appServerRestarted(), 9);
    expect(commands).toEqual([]);
    expect(['a', 'b', 'c', 'd'].map((id) => threadStatus(after, id))).toEqual(['Unloaded', 'Unsubscribing', 'Unloaded', 'Unloaded']);
    expect(transition(after, LifecycleEvent.unsubscribed('a'), 10)[1]).toEqual([]);
  });

  it('a thread whose turn runs when it is archived and the app-server restarts is unloaded: its archive goes with the old process', () => {
    let [state] = transition(initialState(), LifecycleEvent.turnStarted('t'), 0);
    [state] = transition(state, LifecycleEvent.archiveInCodex('t'), 5);
    [state] = transition(state, LifecycleEvent.appServerRestarted(), 6);
    expect(threadStatus(state, 't')).toBe('Unloaded');
    expect(transition(state, LifecycleEvent.turnCompleted('t'), 7)[1]).toEqual([]);
  });
});

describe('an archive in Codex across an app-server restart (random scripts, fake clock)', () => {
  it('a restart keeps exactly the archives in Codex whose unsubscribe is under way, and nothing else', () => {
    let kept = 0;
    fc.assert(
      fc.property(extended, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          if (step.event._tag !== 'AppServerRestarted') continue;
          expect(step.commands).toEqual([]);
          const underWay = archivesUnderWay(step.before);
          expect([...step.after.threads.keys()].sort()).toEqual(underWay);
          kept += underWay.length;
        }
      }),
      RUNS,
    );
    expect(kept).toBeGreaterThan(0);
  });

  it('an unsubscribe for an archive in Codex answered after a restart is followed by ArchiveThread, and only then', () => {
    fc.assert(
      fc.property(restartBeforeAnswer, (script) => {
        const steps = runWithFakeClock(script);
        const last = steps.at(-1);
        expect(last?.event).toEqual(LifecycleEvent.unsubscribed('t'));
        expect(last?.commands[0]).toEqual(LifecycleCommand.archiveThread('t', false));
        const earlier = steps.slice(0, -1).flatMap((step) => step.commands.filter((c) => c.threadId === 't' && c._tag !== 'Unsubscribe'));
        expect(earlier).toEqual([]);
        expect(threadStatus(last?.after ?? initialState(), 't')).toBe('Unloaded');
      }),
      RUNS,
    );
  });

  it('ArchiveThread says releasedBefore exactly when it answers the archive itself (nothing was unsubscribed for it)', () => {
    fc.assert(
      fc.property(extended, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          for (const command of step.commands) {
            if (command._tag !== 'ArchiveThread') continue;
            expect(command.releasedBefore).toBe(step.event._tag === 'Archive');
            if (command.releasedBefore) expect(step.commands.some((c) => c._tag === 'Unsubscribe' && c.threadId === command.threadId)).toBe(false);
          }
        }
      }),
      RUNS,
    );
  });
});

describe('a Started thread needs no queue', () => {
  it('an event about a Started thread yields no command for it but its release for unused', () => {
    let seen = 0;
    fc.assert(
      fc.property(extended, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          const { event } = step;
          if (!('threadId' in event) || step.before.threads.get(event.threadId)?._tag !== 'Started') continue;
          seen += 1;
          const own = step.commands.filter((c) => c.threadId === event.threadId);
          expect(own).toEqual(event._tag === 'Archive' ? [LifecycleCommand.unsubscribe(event.threadId, 'unused')] : []);
        }
      }),
      RUNS,
    );
    expect(seen).toBeGreaterThan(100);
  });
});
