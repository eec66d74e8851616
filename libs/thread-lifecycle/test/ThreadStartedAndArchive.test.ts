/**
 * The rules a host gets by reporting new threads (`ThreadStarted`) and archives in Codex
 * (`LifecycleEvent.archiveInCodex`): laws over random scripts on a fake clock, and the sequences a
 * host drives, step by step.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LifecycleCommand, threadStatus, type LifecycleCommand as Command } from '../src/index.js';
import { LifecycleEvent, type ThreadId } from '../src/LifecycleEvent.js';
import { initialState, transition } from '../src/ThreadLifecycle.js';
import { runWithFakeClock, timedEventsArbitrary, type DrivenStep } from '../src/testing.js';

const RUNS = { numRuns: 400 };
const extended = timedEventsArbitrary({ maxLength: 80, events: { threadStarted: true, archiveInCodex: true } });
const archives = (commands: ReadonlyArray<Command>, id?: ThreadId) => commands.filter((c) => c._tag === 'ArchiveThread' && (id === undefined || c.threadId === id));

/** The `ArchiveThread` commands the rules call for in one step (from the state before it). */
function expectedArchives(step: DrivenStep): Command[] {
  const { event, before } = step;
  if (event._tag === 'Archive' && event.inCodex === true && !before.threads.has(event.threadId)) return [LifecycleCommand.archiveThread(event.threadId, true)];
  if (event._tag === 'Unsubscribed') {
    const record = before.threads.get(event.threadId);
    if (record?._tag === 'Unsubscribing' && record.archiveThread === true) return [LifecycleCommand.archiveThread(event.threadId, false)];
  }
  return [];
}

describe('archive in Codex (random scripts, fake clock)', () => {
  it('ArchiveThread comes exactly when due: an archive of an unloaded thread, or the acknowledgement of an archive release', () => {
    let seen = 0;
    fc.assert(
      fc.property(extended, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          const expected = expectedArchives(step);
          expect(archives(step.commands)).toEqual(expected);
          seen += expected.length;
        }
      }),
      RUNS,
    );
    expect(seen).toBeGreaterThan(100);
  });

  it('on an acknowledgement the archive comes first, before any idle release that fell due', () => {
    fc.assert(
      fc.property(extended, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          if (step.event._tag === 'Unsubscribed' && expectedArchives(step).length > 0) expect(step.commands[0]).toEqual(LifecycleCommand.archiveThread(step.event.threadId, false));
        }
      }),
      RUNS,
    );
  });

  it('a thread is never archived while the lifecycle holds it (it is unloaded after the step)', () => {
    fc.assert(
      fc.property(extended, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          for (const command of archives(step.commands)) expect(threadStatus(step.after, command.threadId)).toBe('Unloaded');
        }
      }),
      RUNS,
    );
  });

  it('without the new events the machine never emits ArchiveThread nor releases for unused', () => {
    fc.assert(
      fc.property(timedEventsArbitrary({ maxLength: 80 }), (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          expect(archives(step.commands)).toEqual([]);
          expect(step.commands.filter((c) => c._tag === 'Unsubscribe' && c.reason === 'unused')).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});

describe('ThreadStarted (random scripts, fake clock)', () => {
  it('a started thread is never released by time or cap, and a follow-up to it needs no resume', () => {
    let started = 0;
    fc.assert(
      fc.property(extended, (script) => {
        for (const step of runWithFakeClock(script, { drain: true })) {
          const startedBefore = new Set([...step.before.threads].flatMap(([id, record]) => (record._tag === 'Started' ? [id] : [])));
          started += startedBefore.size;
          for (const command of step.commands) {
            if (command._tag === 'Unsubscribe' && startedBefore.has(command.threadId)) {
              expect(command.reason).toBe('unused');
              expect(step.event).toMatchObject({ _tag: 'Archive', threadId: command.threadId });
            }
            if (command._tag === 'Resume') expect(startedBefore.has(command.threadId)).toBe(false);
          }
          if (step.event._tag === 'ThreadStarted') expect(threadStatus(step.after, step.event.threadId)).toBe('Started');
        }
      }),
      RUNS,
    );
    expect(started).toBeGreaterThan(100);
  });

  it('archiving a thread before its first turn only releases it, and its acknowledgement archives nothing', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.nat({ max: 10_000_000 }), (inCodex, gap) => {
        let [state, commands] = transition(initialState(), LifecycleEvent.threadStarted('t'), 0);
        expect(commands).toEqual([]);
        [state, commands] = transition(state, inCodex ? LifecycleEvent.archiveInCodex('t') : LifecycleEvent.archive('t'), gap);
        expect(commands).toEqual([LifecycleCommand.unsubscribe('t', 'unused')]);
        [state, commands] = transition(state, LifecycleEvent.unsubscribed('t'), gap);
        expect(commands).toEqual([]);
        expect(threadStatus(state, 't')).toBe('Unloaded');
      }),
    );
  });
});

describe('archive in Codex, step by step', () => {
  it('an idle thread: unsubscribe, then archive once the unsubscribe is acknowledged', () => {
    let [state, commands] = transition(initialState(), LifecycleEvent.turnStarted('t'), 0);
    [state, commands] = transition(state, LifecycleEvent.turnCompleted('t'), 10);
    [state, commands] = transition(state, LifecycleEvent.archiveInCodex('t'), 20);
    expect(commands).toEqual([LifecycleCommand.unsubscribe('t', 'archive')]);
    [state, commands] = transition(state, LifecycleEvent.unsubscribed('t'), 30);
    expect(commands).toEqual([LifecycleCommand.archiveThread('t', false)]);
    expect(threadStatus(state, 't')).toBe('Unloaded');
  });

  it('a running thread: released when its turn ends, archived after the acknowledgement; a follow-up in between takes both back', () => {
    let [state, commands] = transition(initialState(), LifecycleEvent.turnStarted('t'), 0);
    [state, commands] = transition(state, LifecycleEvent.archiveInCodex('t'), 5);
    expect(commands).toEqual([]);
    [state, commands] = transition(state, LifecycleEvent.turnCompleted('t'), 10);
    expect(commands).toEqual([LifecycleCommand.unsubscribe('t', 'archive')]);
    [, commands] = transition(state, LifecycleEvent.unsubscribed('t'), 20);
    expect(commands).toEqual([LifecycleCommand.archiveThread('t', false)]);

    let [again] = transition(initialState(), LifecycleEvent.turnStarted('u'), 0);
    [again] = transition(again, LifecycleEvent.archiveInCodex('u'), 5);
    [again] = transition(again, LifecycleEvent.followUp('u'), 6);
    [again, commands] = transition(again, LifecycleEvent.turnCompleted('u'), 10);
    expect(commands).toEqual([]);
    expect(threadStatus(again, 'u')).toBe('Idle');
  });

  it('a thread released before (idle, cap or restart) is archived at once, with nothing to unsubscribe', () => {
    const [state, commands] = transition(initialState(), LifecycleEvent.archiveInCodex('t'), 0);
    expect(commands).toEqual([LifecycleCommand.archiveThread('t', true)]);
    expect(threadStatus(state, 't')).toBe('Unloaded');
  });

  it('the plain Archive keeps its meaning: release only', () => {
    let [state, commands] = transition(initialState(), LifecycleEvent.turnStarted('t'), 0);
    [state, commands] = transition(state, LifecycleEvent.turnCompleted('t'), 10);
    [state, commands] = transition(state, LifecycleEvent.archive('t'), 20);
    expect(commands).toEqual([LifecycleCommand.unsubscribe('t', 'archive')]);
    [, commands] = transition(state, LifecycleEvent.unsubscribed('t'), 30);
    expect(commands).toEqual([]);
    expect(transition(initialState(), LifecycleEvent.archive('t'), 0)[1]).toEqual([]);
  });
});
