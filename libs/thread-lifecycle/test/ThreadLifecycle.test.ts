import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { LifecycleCommand, nextDeadline, threadStatus, type LifecycleConfig } from '../src/index.js';
import { DEFAULT_LIFECYCLE_CONFIG, lifecycleConfig } from '../src/LifecycleConfig.js';
import { idleThreads, initialState, transition, type LifecycleState } from '../src/ThreadLifecycle.js';
import { LifecycleEvent, type LifecycleEvent as Event } from '../src/LifecycleEvent.js';

const MIN = 60_000;
const IDLE = 30 * MIN;
const { turnStarted, turnCompleted, followUp, archive, unsubscribed, appServerRestarted, tick } = LifecycleEvent;
const { unsubscribe, resume } = LifecycleCommand;

/** Runs events at their times from `state`, returning the final state and each step's commands. */
function run(state: LifecycleState, events: ReadonlyArray<readonly [number, Event]>) {
  const commands: Array<ReadonlyArray<LifecycleCommand>> = [];
  for (const [now, event] of events) {
    const [next, emitted] = transition(state, event, now);
    state = next;
    commands.push(emitted);
  }
  return { state, commands, last: commands.at(-1) ?? [] };
}

/** A thread that ran one turn from `start` to `end`. */
const oneTurn = (id: string, start: number, end: number): Array<readonly [number, Event]> => [
  [start, turnStarted(id)],
  [end, turnCompleted(id)],
];

const config = (options: Parameters<typeof lifecycleConfig>[0]): LifecycleConfig => {
  const made = lifecycleConfig(options);
  if (E.isLeft(made)) throw new Error(made.left.message);
  return made.right;
};

describe('after a turn completes', () => {
  it('keeps the subscription: no command, the thread is idle with a deadline 30 minutes on', () => {
    const { state, commands } = run(initialState(), oneTurn('t1', 0, 5_000));
    expect(commands).toEqual([[], []]);
    expect(threadStatus(state, 't1')).toBe('Idle');
    expect(nextDeadline(state)).toBe(5_000 + IDLE);
  });

  it('a new thread starts as running and is never released while its turn runs', () => {
    const { state, last } = run(initialState(), [
      [0, turnStarted('t1')],
      [10 * IDLE, tick()],
    ]);
    expect(last).toEqual([]);
    expect(threadStatus(state, 't1')).toBe('Running');
    expect(nextDeadline(state)).toBeNull();
  });
});

describe('idle timeout', () => {
  it('unsubscribes exactly 30 minutes after the last activity, not a millisecond before', () => {
    const idle = run(initialState(), oneTurn('t1', 0, 1_000)).state;
    const [early, before] = transition(idle, tick(), 1_000 + IDLE - 1);
    expect(before).toEqual([]);
    expect(threadStatus(early, 't1')).toBe('Idle');
    const [released, at] = transition(early, tick(), 1_000 + IDLE);
    expect(at).toEqual([unsubscribe('t1', 'idle')]);
    expect(threadStatus(released, 't1')).toBe('Unsubscribing');
    expect(nextDeadline(released)).toBeNull();
  });

  it('the timeout is configurable', () => {
    const { state } = run(initialState(config({ idleTimeoutMs: 5 * MIN })), oneTurn('t1', 0, 0));
    expect(nextDeadline(state)).toBe(5 * MIN);
    expect(transition(state, tick(), 5 * MIN)[1]).toEqual([unsubscribe('t1', 'idle')]);
  });

  it('a late timer still releases, and any event releases due threads first', () => {
    const idle = run(initialState(), [...oneTurn('t1', 0, 0), ...oneTurn('t2', 0, 0)]).state;
    const [state, commands] = transition(idle, turnStarted('t3'), IDLE + 7_000);
    expect(commands).toEqual([unsubscribe('t1', 'idle'), unsubscribe('t2', 'idle')]);
    expect(threadStatus(state, 't3')).toBe('Running');
  });

  it('due threads are released earliest deadline first', () => {
    const idle = run(initialState(), [
      [0, turnStarted('late')],
      [0, turnStarted('early')],
      [1_000, turnCompleted('early')],
      [2_000, turnCompleted('late')],
    ]).state;
    expect([...idle.threads.keys()]).toEqual(['late', 'early']);
    expect(transition(idle, tick(), 3 * IDLE)[1]).toEqual([unsubscribe('early', 'idle'), unsubscribe('late', 'idle')]);
  });

  it('a follow-up to a thread whose deadline passed unsubscribes it, then resumes it', () => {
    const idle = run(initialState(), oneTurn('t1', 0, 0)).state;
    const [state, commands] = transition(idle, followUp('t1'), IDLE);
    expect(commands).toEqual([unsubscribe('t1', 'idle'), resume('t1')]);
    expect(threadStatus(state, 't1')).toBe('Starting');
  });
});

describe('a follow-up', () => {
  it('reactivates an idle thread without resuming it, and its old deadline never fires', () => {
    const { state: idle } = run(initialState(), oneTurn('t1', 0, 0));
    const oldDeadline = nextDeadline(idle);
    const { state, commands } = run(idle, [
      [20 * MIN, followUp('t1')],
      [20 * MIN + 1, turnStarted('t1')],
      [25 * MIN, turnCompleted('t1')],
    ]);
    expect(commands.flat()).toEqual([]);
    expect(oldDeadline).toBe(IDLE);
    expect(transition(state, tick(), IDLE)[1]).toEqual([]);
    expect(nextDeadline(state)).toBe(25 * MIN + IDLE);
  });

  it('invalidates the idle period even when the thread completes again at the same instant', () => {
    const { state } = run(initialState(), [...oneTurn('t1', 0, 0), [0, followUp('t1')], [0, turnCompleted('t1')]]);
    const idle = state.threads.get('t1');
    expect(idle).toMatchObject({ _tag: 'Idle', idleSince: 0, deadline: IDLE });
    const first = run(initialState(), oneTurn('t1', 0, 0)).state.threads.get('t1');
    expect(idle?._tag === 'Idle' && first?._tag === 'Idle' && idle.generation > first.generation).toBe(true);
  });

  it('waits for its turn: a starting thread is neither idle nor released by time', () => {
    const { state, last } = run(initialState(), [...oneTurn('t1', 0, 0), [1, followUp('t1')], [5 * IDLE, tick()]]);
    expect(last).toEqual([]);
    expect(threadStatus(state, 't1')).toBe('Starting');
    expect(idleThreads(state)).toEqual([]);
  });

  it('whose turn/start failed is reported as a completed turn and the thread goes idle', () => {
    const { state } = run(initialState(), [...oneTurn('t1', 0, 0), [1, followUp('t1')], [2, turnCompleted('t1')]]);
    expect(threadStatus(state, 't1')).toBe('Idle');
    expect(nextDeadline(state)).toBe(2 + IDLE);
  });

  it('to a released thread yields Resume, before the turn starts', () => {
    const { state, commands } = run(initialState(), [...oneTurn('t1', 0, 0), [IDLE, tick()], [IDLE + 1, followUp('t1')], [IDLE + 2, turnStarted('t1')]]);
    expect(commands).toEqual([[], [], [unsubscribe('t1', 'idle')], [resume('t1')], []]);
    expect(threadStatus(state, 't1')).toBe('Running');
  });

  it('to a released and acknowledged thread yields Resume', () => {
    const { commands } = run(initialState(), [...oneTurn('t1', 0, 0), [IDLE, tick()], [IDLE, unsubscribed('t1')], [IDLE + 1, followUp('t1')]]);
    expect(commands.at(-1)).toEqual([resume('t1')]);
  });

  it('to a thread this app-server never served yields Resume', () => {
    expect(transition(initialState(), followUp('persisted'), 0)[1]).toEqual([resume('persisted')]);
  });

  it('during a running turn changes nothing', () => {
    const { state, last } = run(initialState(), [[0, turnStarted('t1')], [1, followUp('t1')]]);
    expect(last).toEqual([]);
    expect(threadStatus(state, 't1')).toBe('Running');
  });
});

describe('idle cap', () => {
  const five = ['t1', 't2', 't3', 't4', 't5'].flatMap((id, i) => oneTurn(id, i * 1_000, i * 1_000 + 500));

  it('keeps four idle threads; a fifth releases the oldest idle one at once', () => {
    const { state, commands } = run(initialState(), five);
    expect(commands.slice(0, -1).flat()).toEqual([]);
    expect(commands.at(-1)).toEqual([unsubscribe('t1', 'cap')]);
    expect(idleThreads(state)).toEqual(['t2', 't3', 't4', 't5']);
  });

  it('"oldest" is the one idle longest, not the one started first', () => {
    const { last, state } = run(initialState(), [
      [0, turnStarted('a')],
      [1, turnStarted('b')],
      [2, turnStarted('c')],
      [3, turnStarted('d')],
      [4, turnStarted('e')],
      [10, turnCompleted('b')],
      [11, turnCompleted('a')],
      [12, turnCompleted('d')],
      [13, turnCompleted('c')],
      [14, turnCompleted('e')],
    ]);
    expect(last).toEqual([unsubscribe('b', 'cap')]);
    expect(idleThreads(state)).toEqual(['a', 'd', 'c', 'e']);
  });

  it('orders threads that became idle at the same instant by arrival', () => {
    const sameTime = ['t1', 't2', 't3', 't4', 't5'].flatMap((id) => oneTurn(id, 0, 0));
    expect(run(initialState(), sameTime).last).toEqual([unsubscribe('t1', 'cap')]);
  });

  it('a reactivated thread leaves the idle set and comes back as the newest', () => {
    const { last } = run(initialState(), [...five.slice(0, 8), [10_000, followUp('t1')], [10_001, turnCompleted('t1')], ...oneTurn('t5', 10_002, 10_003)]);
    expect(last).toEqual([unsubscribe('t2', 'cap')]);
  });

  it('never counts or releases running or starting threads', () => {
    const { state, commands } = run(initialState(), [
      ...['r1', 'r2', 'r3'].map((id, i) => [i, turnStarted(id)] as const),
      [3, followUp('s1')],
      ...['t1', 't2', 't3', 't4'].flatMap((id, i) => oneTurn(id, 10 + i, 20 + i)),
    ]);
    expect(commands.flat()).toEqual([resume('s1')]);
    expect(idleThreads(state)).toEqual(['t1', 't2', 't3', 't4']);
    expect(['r1', 'r2', 'r3'].map((id) => threadStatus(state, id))).toEqual(['Running', 'Running', 'Running']);
  });

  it('is configurable, down to zero', () => {
    const two = run(initialState(config({ maxIdleThreads: 2 })), five.slice(0, 6));
    expect(two.last).toEqual([unsubscribe('t1', 'cap')]);
    const none = run(initialState(config({ maxIdleThreads: 0 })), oneTurn('t1', 0, 1));
    expect(none.last).toEqual([unsubscribe('t1', 'cap')]);
  });
});

describe('archive', () => {
  it('unsubscribes an idle thread at once', () => {
    const { state, last } = run(initialState(), [...oneTurn('t1', 0, 0), [1, archive('t1')]]);
    expect(last).toEqual([unsubscribe('t1', 'archive')]);
    expect(nextDeadline(state)).toBeNull();
  });

  it('unsubscribes a thread whose follow-up has not started its turn at once', () => {
    expect(run(initialState(), [...oneTurn('t1', 0, 0), [1, followUp('t1')], [2, archive('t1')]]).last).toEqual([unsubscribe('t1', 'archive')]);
  });

  it('waits for a running turn to end, then unsubscribes at once instead of idling', () => {
    const { commands, state } = run(initialState(), [[0, turnStarted('t1')], [1, archive('t1')], [5, turnCompleted('t1')]]);
    expect(commands).toEqual([[], [], [unsubscribe('t1', 'archive')]]);
    expect(idleThreads(state)).toEqual([]);
  });

  it('a follow-up after archiving during a turn keeps the thread', () => {
    const { state, last } = run(initialState(), [[0, turnStarted('t1')], [1, archive('t1')], [2, followUp('t1')], [5, turnCompleted('t1')]]);
    expect(last).toEqual([]);
    expect(threadStatus(state, 't1')).toBe('Idle');
  });

  it('does nothing for a thread that is not subscribed, and a follow-up resumes an archived one', () => {
    const { commands } = run(initialState(), [
      [0, archive('never')],
      ...oneTurn('t1', 0, 0),
      [1, archive('t1')],
      [2, archive('t1')],
      [3, followUp('t1')],
    ]);
    expect(commands).toEqual([[], [], [], [unsubscribe('t1', 'archive')], [], [resume('t1')]]);
  });
});

describe('unsubscribe acknowledgement', () => {
  it('drops the released thread', () => {
    const { state } = run(initialState(), [...oneTurn('t1', 0, 0), [1, archive('t1')], [2, unsubscribed('t1')]]);
    expect(threadStatus(state, 't1')).toBe('Unloaded');
    expect(state.threads.size).toBe(0);
  });

  it('is ignored for a thread resumed before the acknowledgement came', () => {
    const { state, commands } = run(initialState(), [...oneTurn('t1', 0, 0), [1, archive('t1')], [2, followUp('t1')], [3, unsubscribed('t1')]]);
    expect(commands.at(-1)).toEqual([]);
    expect(threadStatus(state, 't1')).toBe('Starting');
  });

  it('is ignored for a subscribed or unknown thread', () => {
    const { state, commands } = run(initialState(), [...oneTurn('t1', 0, 0), [1, unsubscribed('t1')], [2, unsubscribed('other')]]);
    expect(commands.flat()).toEqual([]);
    expect(threadStatus(state, 't1')).toBe('Idle');
  });
});

describe('app-server restart', () => {
  it('unloads every thread without commands; a follow-up then resumes; stale completions are ignored', () => {
    const before = run(initialState(), [...oneTurn('t1', 0, 0), [1, turnStarted('t2')], [2, followUp('t3')], [3, archive('t1')]]).state;
    const [state, commands] = transition(before, appServerRestarted(), 4);
    expect(commands).toEqual([]);
    expect(state.threads.size).toBe(0);
    expect(nextDeadline(state)).toBeNull();
    const after = run(state, [[5, turnCompleted('t2')], [6, followUp('t2')], [7, unsubscribed('t1')]]);
    expect(after.commands).toEqual([[], [resume('t2')], []]);
  });

  it('does not send idle releases to the new process', () => {
    const idle = run(initialState(), oneTurn('t1', 0, 0)).state;
    expect(transition(idle, appServerRestarted(), 2 * IDLE)[1]).toEqual([]);
  });
});

describe('the clock', () => {
  it('never runs backwards: an earlier or non-finite time counts as the last time seen', () => {
    const idle = run(initialState(), oneTurn('t1', 0, 10 * MIN)).state;
    const [back] = transition(idle, followUp('t2'), 0);
    expect(back.clock).toBe(10 * MIN);
    const [nan] = transition(back, turnStarted('t3'), Number.NaN);
    expect(nan.clock).toBe(10 * MIN);
    expect(transition(initialState(), tick(), Number.POSITIVE_INFINITY)[0].clock).toBe(0);
  });

  it('transitions leave their input state untouched', () => {
    const idle = run(initialState(), oneTurn('t1', 0, 0)).state;
    const snapshot = [...idle.threads];
    transition(idle, archive('t1'), 1);
    transition(idle, followUp('t1'), 1);
    expect([...idle.threads]).toEqual(snapshot);
    expect(initialState().config).toBe(DEFAULT_LIFECYCLE_CONFIG);
  });
});
