/**
 * The example at the top of README.md, kept compiling and passing.
 */
import { expect, test } from 'vitest';
import { LifecycleCommand, TaskEvent, initialTaskThreads, makeThreadLifecycle as makeRealLifecycle, taskStep as realTaskStep } from '../src/index.js';
import type { ThreadLifecycle } from '../src/LifecycleMachine.js';

/** The real lifecycle, with every answer of its methods recorded in `results`, so the example runs as written. */
function recordingLifecycle(results: unknown[]): () => ThreadLifecycle {
  return () => {
    const real = makeRealLifecycle();
    return new Proxy(real, {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? (...args: unknown[]) => keepResult(results, value.apply(target, args)) : value;
      },
    });
  };
}
const keepResult = <A>(results: unknown[], a: A): A => {
  results.push(a);
  return a;
};

test('README example', () => {
  const results: unknown[] = [];
  const makeThreadLifecycle = recordingLifecycle(results);

  // --- README example begins ---
  const lifecycle = makeThreadLifecycle(); // 30 minutes, four idle threads; one per app-server
  const MIN = 60_000;

  lifecycle.turnStarted('thr_1', 0);          // [] — a new thread's first turn
  lifecycle.turnCompleted('thr_1', 1 * MIN);  // [] — the subscription is kept
  lifecycle.nextDeadline();                   // 31 * MIN: arm the one timer for then
  lifecycle.tick(31 * MIN);                   // [Unsubscribe { threadId: 'thr_1', reason: 'idle' }]
  lifecycle.unsubscribed('thr_1', 31 * MIN);  // [] — the app-server answered thread/unsubscribe
  lifecycle.followUp('thr_1', 40 * MIN);      // [Resume { threadId: 'thr_1' }] — then turn/start
  lifecycle.turnStarted('thr_1', 40 * MIN);   // []
  lifecycle.archive('thr_1', 41 * MIN);       // [] — a running turn is never released…
  lifecycle.turnCompleted('thr_1', 42 * MIN); // […so: Unsubscribe { threadId: 'thr_1', reason: 'archive' }]
  // --- README example ends ---

  expect(results).toEqual([
    [],
    [],
    31 * MIN,
    [LifecycleCommand.unsubscribe('thr_1', 'idle')],
    [],
    [LifecycleCommand.resume('thr_1')],
    [],
    [],
    [LifecycleCommand.unsubscribe('thr_1', 'archive')],
  ]);
});

test('README example: a new thread, reported, and an archive in Codex', () => {
  const results: unknown[] = [];
  const keep = <A>(a: A): A => keepResult(results, a);
  const host = makeRealLifecycle();
  keep(host.threadStarted('thr_2', 0));
  keep(host.followUp('thr_2', 0));
  host.turnStarted('thr_2', 0);
  keep(host.turnCompleted('thr_2', 1_000));
  keep(host.archiveInCodex('thr_2', 2_000));
  keep(host.unsubscribed('thr_2', 2_100));
  keep(host.archiveInCodex('thr_9', 3_000));
  expect(results).toEqual([
    [],
    [],
    [],
    [LifecycleCommand.unsubscribe('thr_2', 'archive')],
    [LifecycleCommand.archiveThread('thr_2', false)],
    [LifecycleCommand.archiveThread('thr_9', true)],
  ]);
});

test('README example: tasks and their threads', () => {
  const results: unknown[] = [];
  /** The real `taskStep`, with the commands of every step recorded in `results`, so the example runs as written. */
  const taskStep: typeof realTaskStep = (...args) => {
    const stepped = realTaskStep(...args);
    results.push(stepped[1]);
    return stepped;
  };
  // --- README example begins ---
  let state = initialTaskThreads();
  const step = (event: TaskEvent, now: number) => { const [next, commands] = taskStep(state, event, now); state = next; return commands; };

  step(TaskEvent.taskStarted({ taskId: 't', threadId: 'thr_1', archived: false }, 1, 0), 0); // [] — thread/start on app-server 1
  step(TaskEvent.appServerSeen(2), 10);               // [AppServerReplaced] — app-server 1 died before any turn
  step(TaskEvent.sendRequested('t', 2, 0), 10);       // [StartThread { why: 'lost' }] — nothing to resume
  step(TaskEvent.threadRenewed('t', 'thr_2', 'lost', 2, 0), 20); // [StartTurn { threadId: 'thr_2' }]
  step(TaskEvent.turnStarting('thr_2', 2, 'full-access'), 20);   // [RunTurn { overrides: 'send' }]
  step(TaskEvent.turnEnded('thr_2', true, true), 30);            // [] — completed: the thread has a rollout
  // --- README example ends ---
  expect(results).toEqual([
    [],
    [{ _tag: 'AppServerReplaced', appServer: 2 }],
    [{ _tag: 'StartThread', taskId: 't', replacing: 'thr_1', why: 'lost' }],
    [{ _tag: 'StartTurn', taskId: 't', threadId: 'thr_2' }],
    [{ _tag: 'RunTurn', threadId: 'thr_2', overrides: 'send' }],
    [],
  ]);
  expect(state.tasks.get('t')?.threadId).toBe('thr_2');
});
