/**
 * Tasks over the executor's one app-server, each a Codex thread. The rules are `@wework/thread-lifecycle`'s
 * `taskStep` (which thread a task runs on; when it is renewed, reloaded, resumed, released or archived;
 * which turn leaves out its overrides). This module reports what it did and saw, with the clock's time, the
 * app-server instance and the environment version, and carries out the commands it gets back: the
 * lifecycle's in one queue per thread (`ThreadQueues`), the rest in the send that asked for them. Messages
 * while a turn runs follow `deliveryStep` (`TaskDeliveries`): steered, queued, or cancelled by a stop.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Turn, UserInputStrict } from '@wework/codex-protocol';
import { TaskEvent, initialTaskThreads, nextDeadline, taskOfThread, taskStep, threadStatus, type LifecycleCommand, type TaskCommand, type TaskThreadsState } from '@wework/thread-lifecycle';
import type { RuntimeFault } from '@wework/host-errors';
import type { LocalRuntime } from '../runtime/LocalRuntime.js';
import { taskMessages } from './TaskMessages.js';
import type { ModelSelection, TaskRecord } from '@wework/host-protocol';
import { copyJson } from './TaskRecord.js';
import type { TaskError, TaskRuntime, TaskRuntimeOptions } from './TaskRuntimeApi.js';
import { threadConfigFor, threadParamsOf, turnOverridesOf } from './TaskThreadConfig.js';
import { threadQueues } from './ThreadQueues.js';
import { archiveThread, unsubscribeThread } from './ThreadRequests.js';

export { type DeliverMessage, type ForkOutcome, type NewTask, type TaskError, type TaskRuntime, type TaskRuntimeOptions } from './TaskRuntimeApi.js';

const runtimeError = (error: RuntimeFault): E.Either<TaskError, never> => E.left({ _tag: 'Runtime', error });

/** Tasks over the supervisor's app-server. */
export function taskRuntime(options: TaskRuntimeOptions): TaskRuntime {
  const { clock, timer, registry, log } = options;
  const environment = options.environment ?? { version: () => 0, overrides: () => ({}) };
  let state: TaskThreadsState<TaskRecord> = initialTaskThreads(options.lifecycle);

  /** Reports an event; arms the one timer for the next deadline. */
  const apply = (event: TaskEvent<TaskRecord>): ReadonlyArray<TaskCommand> => {
    const [next, commands] = taskStep(state, event, clock.now());
    state = next;
    const deadline = nextDeadline(state.lifecycle);
    if (deadline === null) timer.clear();
    else timer.set(deadline, () => spread(apply(TaskEvent.tick())));
    if (commands.some((command) => command._tag === 'AppServerReplaced')) log({ event: 'threads released by app-server restart', fields: {} });
    return commands;
  };
  /** The running runtime, reported: a later one means the app-server restarted. */
  const current = (): LocalRuntime => {
    const runtime = options.runtime.current();
    apply(TaskEvent.appServerSeen(runtime.instance));
    return runtime;
  };
  /** The params of a thread call of a task, with the current environment and its version. */
  const configFor = (task: Pick<TaskRecord, 'taskId' | 'modelSelection' | 'executionRequest'>, call: 'thread/start' | 'thread/resume' | 'thread/fork') =>
    ({ version: environment.version(), config: threadConfigFor(task, call, registry, environment.overrides()) });

  /** Carries out one lifecycle command, in its thread's queue; a resume's failure is returned. */
  const execute = async (command: LifecycleCommand): Promise<E.Either<TaskError, void>> => {
    const { threadId } = command;
    if (command._tag === 'Unsubscribe') {
      if (command.reason === 'reload') log({ event: 'thread reloaded for a new environment', fields: { taskId: taskOfThread(state, threadId)?.taskId ?? null, threadId } });
      await unsubscribeThread(current().server.client, command, log);
      return run(threadId, apply(TaskEvent.unsubscribed(threadId)));
    }
    if (command._tag === 'ArchiveThread') return E.right(await archiveThread(current().server.client, command, log));
    const task = taskOfThread(state, threadId);
    if (task === undefined) return E.right(undefined);
    const { version, config } = configFor(task, 'thread/resume');
    if (E.isLeft(config)) return config;
    const runtime = current();
    const resumed = await runtime.resumeThread(threadId, threadParamsOf(config.right));
    // thread/resume carried the turn overrides of this config too: a next turn with the same ones leaves them out.
    if (E.isRight(resumed)) spread(apply(TaskEvent.resumed(threadId, runtime.instance, version, turnOverridesOf(config.right).key)));
    log({ event: 'thread resumed', fields: { threadId, ...(E.isLeft(resumed) ? { error: resumed.left._tag } : {}) } });
    return E.isLeft(resumed) ? runtimeError(resumed.left) : E.right(undefined);
  };

  const { run, enqueue, spread, awaiting, settled } = threadQueues(execute, log);
  /** Reports a send's event and runs its commands, waiting for those of the task's thread before and after it. */
  const advance = async (taskId: string, event: TaskEvent<TaskRecord>): Promise<[ReadonlyArray<TaskCommand>, E.Either<TaskError, void>]> => {
    const before = state.tasks.get(taskId)?.threadId;
    const commands = apply(event);
    const own = [before, state.tasks.get(taskId)?.threadId].filter((id): id is string => id !== undefined);
    return [commands, await awaiting(own, commands)];
  };

  /** `thread/start` for a task; what to report once it answered. */
  const startThread = async (task: Pick<TaskRecord, 'taskId' | 'modelSelection' | 'executionRequest'>) => {
    const { version, config } = configFor(task, 'thread/start');
    if (E.isLeft(config)) return config;
    const { cwd, ...params } = threadParamsOf(config.right);
    const runtime = current();
    const started = await runtime.startThread(params, { cwd });
    return E.isLeft(started) ? runtimeError(started.left) : E.right({ threadId: started.right.threadId, appServer: runtime.instance, version });
  };

  /** The task as it is now (a task is never dropped, so one found before is still there). */
  const now = (task: TaskRecord): TaskRecord => state.tasks.get(task.taskId) ?? task;
  const found = (taskId: string): E.Either<TaskError, TaskRecord> => E.fromNullable<TaskError>({ _tag: 'TaskNotFound', taskId })(state.tasks.get(taskId));

  const send = async (taskId: string, input: ReadonlyArray<UserInputStrict>, modelSelection?: ModelSelection, onStarted?: (turnId: string) => void): Promise<E.Either<TaskError, Turn>> => {
    const known = found(taskId);
    if (E.isLeft(known)) return known;
    if (known.right.archived) return E.left({ _tag: 'TaskArchived', taskId });
    if (modelSelection !== undefined) apply(TaskEvent.taskChanged({ ...known.right, modelSelection: copyJson(modelSelection) }));
    const config = threadConfigFor(now(known.right), 'turn/start', registry);
    if (E.isLeft(config)) return config;
    const runtime = current();
    let event: TaskEvent<TaskRecord> = TaskEvent.sendRequested(taskId, runtime.instance, environment.version());
    let failure: TaskError | undefined;
    for (;;) {
      const [commands, ran] = await advance(taskId, event);
      if (E.isLeft(ran)) {
        failure = ran.left;
        event = TaskEvent.resumeFailed(state.tasks.get(taskId)?.threadId ?? '', runtime.instance, ran.left._tag === 'Runtime' && ran.left.error._tag === 'RequestFailed');
        continue;
      }
      const next = commands.find((command) => command._tag === 'StartThread' || command._tag === 'StartTurn' || command._tag === 'SendFailed');
      if (next?._tag === 'StartTurn') break;
      if (next?._tag !== 'StartThread') return E.left(failure ?? { _tag: 'TaskNotFound', taskId });
      const task = now(known.right);
      const started = await startThread(task);
      if (E.isLeft(started)) return started;
      const why = next.why === 'environment' ? 'new environment before its first turn' : 'lost before its first turn';
      log({ event: `thread started again: ${why}`, fields: { taskId, previous: task.threadId, threadId: started.right.threadId } });
      event = TaskEvent.threadRenewed(taskId, started.right.threadId, next.why, started.right.appServer, started.right.version);
    }
    const { threadId } = now(known.right);
    const overrides = turnOverridesOf(config.right);
    const starting = apply(TaskEvent.turnStarting(threadId, runtime.instance, overrides.key));
    spread(starting);
    const omit = starting.some((command) => command._tag === 'RunTurn' && command.overrides === 'omit');
    let started = false; // turn/start answered (its id is known)
    const turn = await runtime.runTurn(threadId, input, omit ? {} : overrides.params, (turnId) => void ((started = true), onStarted?.(turnId)));
    await advance(taskId, TaskEvent.turnEnded(threadId, started, E.isRight(turn) && (turn.right.status === 'completed' || turn.right.status === 'interrupted')));
    return E.isLeft(turn) ? runtimeError(turn.left) : E.right(turn.right);
  };

  const messages = taskMessages({ found, send, runtime: current, log });

  return {
    create: async (input) => {
      if (state.tasks.has(input.taskId)) return E.left({ _tag: 'TaskExists', taskId: input.taskId });
      const started = await startThread(input);
      if (E.isLeft(started)) return started;
      const task: TaskRecord = { taskId: input.taskId, threadId: started.right.threadId, modelSelection: copyJson(input.modelSelection), executionRequest: copyJson(input.executionRequest), archived: false };
      spread(apply(TaskEvent.taskStarted(task, started.right.appServer, started.right.version)));
      return E.right(task);
    },
    open: (task) => {
      if (state.tasks.has(task.taskId)) return E.left({ _tag: 'TaskExists', taskId: task.taskId });
      const copy = copyJson(task);
      apply(TaskEvent.taskOpened(copy));
      return E.right(copy);
    },
    get: (taskId) => state.tasks.get(taskId),
    list: () => [...state.tasks.values()],
    send,
    ...messages,
    archive: async (taskId) => {
      const task = found(taskId);
      if (E.isLeft(task) || task.right.archived) return E.map(() => undefined)(task);
      current();
      const { threadId } = task.right;
      // The lifecycle says what to send (unsubscribe at once or when the running turn ends, then thread/archive).
      // The thread/archive of a thread released before goes out once its queue has come to it, without holding the queue.
      const commands = apply(TaskEvent.taskArchived(taskId));
      const alone = commands.filter((command) => command._tag === 'ArchiveThread' && command.releasedBefore);
      const archived = await enqueue(threadId, commands.filter((command) => !alone.includes(command)));
      return E.isRight(archived) ? run(threadId, alone) : archived;
    },
    fork: async (sourceTaskId, request) => {
      const source = found(sourceTaskId);
      if (E.isLeft(source)) return source;
      if (state.tasks.has(request.newTaskId)) return E.left({ _tag: 'TaskExists', taskId: request.newTaskId });
      const { version, config } = configFor(source.right, 'thread/fork');
      if (E.isLeft(config)) return config;
      const runtime = current();
      const forked = await runtime.forkThread(source.right.threadId, { ...threadParamsOf(config.right), ...(request.lastTurnId === undefined ? {} : { lastTurnId: request.lastTurnId }) });
      if (E.isLeft(forked)) return runtimeError(forked.left);
      if (config.right.registration !== null) registry.bind(request.newTaskId, config.right.registration);
      const { modelSelection, executionRequest } = source.right;
      const task: TaskRecord = { taskId: request.newTaskId, threadId: forked.right.threadId, modelSelection: copyJson(modelSelection), executionRequest: copyJson(executionRequest), archived: false };
      spread(apply(TaskEvent.taskForked(task, runtime.instance, version)));
      log({ event: 'task forked', fields: { sourceTaskId, taskId: task.taskId, threadId: task.threadId, routed: config.right.registration !== null } });
      const { model, modelProvider, activePermissionProfile, cwd } = forked.right;
      return E.right({ task, model, modelProvider, activePermissionProfile, cwd });
    },
    threadStatus: (taskId) => {
      const task = state.tasks.get(taskId);
      return task === undefined ? undefined : threadStatus(state.lifecycle, task.threadId);
    },
    settled,
    dispose: () => timer.clear(),
  };
}
