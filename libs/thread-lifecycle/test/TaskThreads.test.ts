/**
 * The task runtime's rules (`taskStep`): a new thread for a task whose thread has no rollout, reloads for
 * a new environment, app-server instances, and turn overrides left out when unchanged — step by step, and
 * as laws over random event scripts.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runTaskScript, taskScriptArbitrary, type ScriptedTaskEvent } from '../src/testing.js';
import { LifecycleCommand, TaskEvent, initialTaskThreads, taskStep, threadStatus, type TaskCommand, type TaskThreadsState } from '../src/index.js';
import { idleThreads } from '../src/ThreadLifecycle.js';
import type { TaskLike } from '../src/TaskThreads.js';

type Task = TaskLike & { readonly note?: string };

/** Runs events one after another (one millisecond apart); returns the last state and each step's commands. */
function drive(events: ReadonlyArray<TaskEvent<Task>>, start: TaskThreadsState<Task> = initialTaskThreads<Task>()): [TaskThreadsState<Task>, Array<ReadonlyArray<TaskCommand>>] {
  let state = start;
  const all: Array<ReadonlyArray<TaskCommand>> = [];
  events.forEach((event, i) => {
    const [next, commands] = taskStep(state, event, i);
    state = next;
    all.push(commands);
  });
  return [state, all];
}

const task = (taskId: string, threadId: string): Task => ({ taskId, threadId, archived: false });
const startTurn = (taskId: string, threadId: string): TaskCommand => ({ _tag: 'StartTurn', taskId, threadId });
const startThread = (taskId: string, replacing: string, why: 'lost' | 'refused' | 'environment'): TaskCommand => ({ _tag: 'StartThread', taskId, replacing, why });
const runTurn = (threadId: string, overrides: 'send' | 'omit'): TaskCommand => ({ _tag: 'RunTurn', threadId, overrides });

/** A task whose thread was started on app-server 1 with environment 0 and ran one turn (`rollout`: it completed). */
function afterOneTurn(rollout: boolean): TaskThreadsState<Task> {
  return drive([
    TaskEvent.taskStarted(task('t', 'thr_1'), 1, 0),
    TaskEvent.sendRequested('t', 1, 0),
    TaskEvent.turnStarting('thr_1', 1, 'k'),
    TaskEvent.turnEnded('thr_1', true, rollout),
  ])[0];
}

describe('a thread with no rollout', () => {
  it('lost with its app-server before its first turn: the next send starts a new thread, which needs no resume', () => {
    const [state, commands] = drive([
      TaskEvent.taskStarted(task('t', 'thr_1'), 1, 0),
      TaskEvent.appServerSeen(2),
      TaskEvent.sendRequested('t', 2, 0),
      TaskEvent.threadRenewed('t', 'thr_2', 'lost', 2, 0),
    ]);
    expect(commands).toEqual([[], [{ _tag: 'AppServerReplaced', appServer: 2 }], [startThread('t', 'thr_1', 'lost')], [startTurn('t', 'thr_2')]]);
    expect(state.tasks.get('t')?.threadId).toBe('thr_2');
    expect(state.threads.has('thr_1')).toBe(false);
    expect(threadStatus(state.lifecycle, 'thr_2')).toBe('Started');
  });

  it('its first turn failed: after a restart the resume is tried first; Codex refusing it starts a new thread', () => {
    const [, commands] = drive([TaskEvent.sendRequested('t', 2, 0), TaskEvent.resumeFailed('thr_1', 2, true)], afterOneTurn(false));
    expect(commands).toEqual([
      [{ _tag: 'AppServerReplaced', appServer: 2 }, LifecycleCommand.resume('thr_1'), startTurn('t', 'thr_1')],
      [startThread('t', 'thr_1', 'refused')],
    ]);
  });

  it('a resume that failed otherwise (lost, timed out) ends the send', () => {
    const [, commands] = drive([TaskEvent.sendRequested('t', 2, 0), TaskEvent.resumeFailed('thr_1', 2, false)], afterOneTurn(false));
    expect(commands[1]).toEqual([{ _tag: 'SendFailed', threadId: 'thr_1' }]);
  });

  it('a resume on the later app-server that succeeds proves the rollout: a later refusal is only an error', () => {
    const [state, commands] = drive(
      [TaskEvent.sendRequested('t', 2, 0), TaskEvent.resumed('thr_1', 2, 0), TaskEvent.appServerSeen(3), TaskEvent.sendRequested('t', 3, 0), TaskEvent.resumeFailed('thr_1', 3, true)],
      afterOneTurn(false),
    );
    expect(state.threads.get('thr_1')).toEqual({ environment: 0 });
    expect(commands.at(-1)).toEqual([{ _tag: 'SendFailed', threadId: 'thr_1' }]);
  });

  it('a completed turn is a rollout: after a restart the thread is resumed, and a refusal is only an error', () => {
    const [, commands] = drive([TaskEvent.sendRequested('t', 2, 0), TaskEvent.resumeFailed('thr_1', 2, true)], afterOneTurn(true));
    expect(commands).toEqual([[{ _tag: 'AppServerReplaced', appServer: 2 }, LifecycleCommand.resume('thr_1'), startTurn('t', 'thr_1')], [{ _tag: 'SendFailed', threadId: 'thr_1' }]]);
  });

  it('a forked thread has the source’s rollout: it is resumed after a restart, never replaced', () => {
    const [, commands] = drive([TaskEvent.taskForked(task('f', 'thr_f'), 1, 0), TaskEvent.appServerSeen(2), TaskEvent.sendRequested('f', 2, 0)]);
    expect(commands[2]).toEqual([LifecycleCommand.resume('thr_f'), startTurn('f', 'thr_f')]);
  });
});

describe('a new environment', () => {
  it('an idle thread is released for reload and resumed with it before the turn', () => {
    const [, commands] = drive([TaskEvent.sendRequested('t', 1, 1)], afterOneTurn(true));
    expect(commands[0]).toEqual([LifecycleCommand.unsubscribe('thr_1', 'reload'), LifecycleCommand.resume('thr_1'), startTurn('t', 'thr_1')]);
  });

  it('a thread started on this app-server with no turn yet is replaced, and released as unused', () => {
    const [state, commands] = drive([TaskEvent.taskStarted(task('t', 'thr_1'), 1, 0), TaskEvent.sendRequested('t', 1, 1), TaskEvent.threadRenewed('t', 'thr_2', 'environment', 1, 1)]);
    expect(commands.slice(1)).toEqual([[startThread('t', 'thr_1', 'environment')], [LifecycleCommand.unsubscribe('thr_1', 'unused'), startTurn('t', 'thr_2')]]);
    expect(state.threads.get('thr_2')).toEqual({ environment: 1, noRolloutOn: 1 });
  });

  it('a forked thread keeps what it was forked with until its first turn ended; an unchanged environment changes nothing', () => {
    expect(drive([TaskEvent.taskForked(task('f', 'thr_f'), 1, 0), TaskEvent.sendRequested('f', 1, 1)])[1][1]).toEqual([startTurn('f', 'thr_f')]);
    expect(drive([TaskEvent.sendRequested('t', 1, 0)], afterOneTurn(true))[1][0]).toEqual([startTurn('t', 'thr_1')]);
  });
});

describe('turn overrides', () => {
  it('an unchanged key is left out; a new key, a resume, a failed start or a new app-server send them again', () => {
    const turn = (key: string, appServer = 1, started = true) => [TaskEvent.sendRequested('t', appServer, 0), TaskEvent.turnStarting('thr_1', appServer, key), TaskEvent.turnEnded('thr_1', started, true)] as const;
    const [, commands] = drive([
      TaskEvent.taskStarted(task('t', 'thr_1'), 1, 0),
      ...turn('a'), // first turn: sent
      ...turn('a'), // unchanged: omitted
      ...turn('b'), // changed: sent
      TaskEvent.resumed('thr_1', 1, 0),
      ...turn('b', 1, false), // after a resume: sent; its start failed
      ...turn('b'), // after a failed start: sent
      ...turn('b', 2), // a new app-server: sent
      ...turn('b', 2), // omitted
    ]);
    expect(commands.flat().filter((command) => command._tag === 'RunTurn')).toEqual(
      (['send', 'omit', 'send', 'send', 'send', 'send', 'omit'] as const).map((overrides) => runTurn('thr_1', overrides)),
    );
  });

  it('a resume that carried the turn’s overrides leaves them out of the next turn; one that carried others, or one on an earlier app-server, does not', () => {
    const turn = (key: string, appServer = 1) => [TaskEvent.sendRequested('t', appServer, 0), TaskEvent.turnStarting('thr_1', appServer, key), TaskEvent.turnEnded('thr_1', true, true)] as const;
    const [, commands] = drive([
      TaskEvent.taskStarted(task('t', 'thr_1'), 1, 0),
      ...turn('a'), // first turn: sent
      TaskEvent.resumed('thr_1', 1, 0, 'a'),
      ...turn('a'), // the resume carried them: omitted
      TaskEvent.resumed('thr_1', 1, 0, 'b'),
      ...turn('a'), // the resume carried others: sent
      TaskEvent.appServerSeen(2),
      TaskEvent.resumed('thr_1', 1, 0, 'a'),
      ...turn('a', 2), // that resume was on the app-server before: sent
      TaskEvent.resumed('thr_1', 2, 0, 'a'),
      ...turn('a', 2), // omitted
    ]);
    expect(commands.flat().filter((command) => command._tag === 'RunTurn')).toEqual(
      (['send', 'omit', 'send', 'send', 'omit'] as const).map((overrides) => runTurn('thr_1', overrides)),
    );
  });
});

describe('app-server instances and task records', () => {
  it('an earlier instance (a call begun before the restart) releases nothing', () => {
    const before = afterOneTurn(true);
    const [state, commands] = drive([TaskEvent.appServerSeen(1), TaskEvent.appServerSeen(0)], before);
    expect(commands).toEqual([[], []]);
    expect(state.lifecycle.threads).toEqual(before.lifecycle.threads);
  });

  it('TaskChanged keeps the thread and the archive mark; TaskArchived releases the thread, and an archived task sends nothing', () => {
    const [state, commands] = drive(
      [TaskEvent.taskChanged({ ...task('t', 'other'), archived: true, note: 'saved' }), TaskEvent.taskArchived('t'), TaskEvent.sendRequested('t', 1, 0), TaskEvent.taskArchived('t')],
      afterOneTurn(true),
    );
    expect(state.tasks.get('t')).toEqual({ taskId: 't', threadId: 'thr_1', archived: true, note: 'saved' });
    expect(commands).toEqual([[], [LifecycleCommand.unsubscribe('thr_1', 'archive')], [], []]);
  });

  it('TaskOpened keeps a task already there', () => {
    const [state] = drive([TaskEvent.taskOpened({ ...task('t', 'thr_9'), note: 'again' })], afterOneTurn(true));
    expect(state.tasks.get('t')).toEqual(task('t', 'thr_1'));
  });
});

// ---- laws over random scripts ----

const scriptArbitrary = taskScriptArbitrary();
const run = (script: ReadonlyArray<ScriptedTaskEvent>) => runTaskScript(script);

const RUNS = { numRuns: 300 };

describe('laws over random scripts', () => {
  it('a send to a thread lost before any turn of it started asks for a new thread and nothing of the old one', () => {
    let seen = 0;
    fc.assert(
      fc.property(scriptArbitrary, (script) => {
        for (const { before, event, commands } of run(script)) {
          if (event._tag !== 'SendRequested') continue;
          const known = before.tasks.get(event.taskId);
          if (known === undefined || known.archived) {
            expect(commands.filter((c) => c._tag !== 'AppServerReplaced' && c._tag !== 'Unsubscribe')).toEqual([]);
            continue;
          }
          const facts = before.threads.get(known.threadId) ?? {};
          const lost = facts.noRolloutOn !== undefined && facts.noRolloutOn !== event.appServer && facts.turnTried !== true;
          if (lost) seen += 1;
          const controls = commands.filter((c) => c._tag === 'StartThread' || c._tag === 'StartTurn');
          expect(controls).toHaveLength(1);
          if (lost) expect(controls).toEqual([startThread(event.taskId, known.threadId, 'lost')]);
          // No resume of a thread that has nothing to resume.
          if (lost) expect(commands.some((c) => c._tag === 'Resume')).toBe(false);
        }
      }),
      RUNS,
    );
    expect(seen).toBeGreaterThan(20);
  });

  it('a turn never starts on an idle thread loaded with another environment without its release and resume first', () => {
    let reloads = 0;
    fc.assert(
      fc.property(scriptArbitrary, (script) => {
        for (const { before, event, commands } of run(script)) {
          const start = commands.find((c) => c._tag === 'StartTurn');
          if (start === undefined || (event._tag !== 'SendRequested' && event._tag !== 'ThreadRenewed')) continue;
          const facts = before.threads.get(start.threadId);
          const stale = facts?.environment !== undefined && facts.environment !== event.environment;
          if (!stale || threadStatus(before.lifecycle, start.threadId) !== 'Idle') continue;
          const own = commands.filter((c) => c._tag !== 'AppServerReplaced' && 'threadId' in c && c.threadId === start.threadId);
          // The deadline may have released it already (idle): then only the resume is left to do.
          expect(own.slice(-2)).toEqual([LifecycleCommand.resume(start.threadId), start]);
          if (own.some((c) => c._tag === 'Unsubscribe' && c.reason === 'reload')) reloads += 1;
        }
      }),
      RUNS,
    );
    expect(reloads).toBeGreaterThan(10);
  });

  it('a turn leaves out its overrides exactly when its thread took the same ones through its last turn or its resume on this app-server', () => {
    let omitted = 0;
    let resumedWith = 0;
    fc.assert(
      fc.property(scriptArbitrary, (script) => {
        // An independent model: the key each thread last took, forgotten by whatever makes Codex re-derive it.
        const took = new Map<string, string>();
        let latest: number | null = null;
        for (const { event, commands } of run(script)) {
          if ('appServer' in event && (latest === null || event.appServer > latest)) {
            if (latest !== null) took.clear();
            latest = event.appServer;
          }
          if (event._tag === 'TurnStarting') {
            const expected = took.get(event.threadId) === event.overrides && event.appServer === latest ? 'omit' : 'send';
            expect(commands.filter((c) => c._tag === 'RunTurn')).toEqual([runTurn(event.threadId, expected)]);
            if (expected === 'omit') omitted += 1;
            if (event.appServer === latest) took.set(event.threadId, event.overrides);
            else took.delete(event.threadId);
          } else if (event._tag === 'Resumed' && event.overrides !== undefined && event.appServer === latest) {
            took.set(event.threadId, event.overrides);
            resumedWith += 1;
          } else if (event._tag === 'Resumed' || event._tag === 'ResumeFailed' || (event._tag === 'TurnEnded' && !event.started)) took.delete(event.threadId);
          else if (event._tag === 'TaskStarted' || event._tag === 'TaskForked') took.delete(event.task.threadId);
          else if (event._tag === 'ThreadRenewed') took.delete(event.threadId);
          else expect(commands.some((c) => c._tag === 'RunTurn')).toBe(false);
        }
      }),
      RUNS,
    );
    expect(omitted).toBeGreaterThan(20);
    expect(resumedWith).toBeGreaterThan(20);
  });

  it('a task’s thread changes only by ThreadRenewed (whose old thread is forgotten) or a new start of the task; the idle cap holds', () => {
    fc.assert(
      fc.property(scriptArbitrary, (script) => {
        for (const { before, event, after } of run(script)) {
          expect(idleThreads(after.lifecycle).length).toBeLessThanOrEqual(after.lifecycle.config.maxIdleThreads);
          for (const [taskId, was] of before.tasks) {
            const now = after.tasks.get(taskId);
            if (event._tag === 'ThreadRenewed' && event.taskId === taskId) {
              expect(now?.threadId).toBe(event.threadId);
              expect(after.threads.has(was.threadId)).toBe(was.threadId === event.threadId);
              continue;
            }
            // A task started or forked again under the same id (a host refuses that) is a new task.
            if ((event._tag === 'TaskStarted' || event._tag === 'TaskForked') && event.task.taskId === taskId) continue;
            expect(now?.threadId).toBe(was.threadId);
            if (was.archived) expect(now?.archived).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });
});
