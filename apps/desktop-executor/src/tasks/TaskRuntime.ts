/**
 * Tasks over the executor's one app-server: each task is a Codex thread, started with the task's model,
 * provider, permission mode and workspace. `@wework/thread-lifecycle` decides when a thread keeps or
 * releases its subscription (kept after a turn, `thread/unsubscribe` after 30 idle minutes, at most four
 * idle threads, archive at once, `thread/resume` before a follow-up to a released thread); this module
 * does what it says, with an injected clock and one timer: it reports threads started, turns, follow-ups,
 * archives (in Codex too) and acknowledgements, and carries out the `Unsubscribe`, `Resume` and
 * `ArchiveThread` commands it gets back, in one queue per thread: a thread's unsubscribe and resume never
 * cross, and no thread's turn waits for another thread's commands (another thread's release that falls
 * due, or that the idle cap asks for, goes into that thread's queue). An app-server restart (an account switch,
 * or a crash the supervisor recovered from) is noticed on the next call and releases every thread
 * without sending anything. A thread that never ran a turn has no rollout to resume: when its app-server
 * is gone, the task's next message starts a new thread for it (the task's `threadId` changes). A thread
 * whose turns all failed or died may have one: its resume is tried first, and only when Codex refuses it
 * does a new thread take its place.
 *
 * Every thread call of a task carries the thread environment's config overrides (the runtime token in
 * the shell environment). Codex keeps a loaded thread's overrides, so a thread loaded with an older
 * version of them is reloaded before its next turn: an idle one is released (`Reload`) and resumed with
 * the new ones; a new one that never ran a turn has no rollout to resume, so a new thread takes its place.
 * A turn that is running keeps the overrides it started with.
 *
 * A message sent while the task's turn runs is delivered by the rules of `@wework/thread-lifecycle`'s
 * `deliveryStep` (`TaskDeliveries` carries them out): steered into the running turn with `turn/steer`, or
 * queued (at most sixteen wait) for a turn of its own; a stop cancels every waiting message.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ThreadArchive, ThreadUnsubscribe, type ActivePermissionProfile, type Turn, type UserInputStrict } from '@wework/codex-protocol';
import { describeClientError } from '@wework/app-server-client';
import { makeThreadLifecycle, type Delivery, type ArchiveThread, type LifecycleCommand, type LifecycleConfig, type ThreadLifecycle, type ThreadStatus, type UnsubscribeReason } from '@wework/thread-lifecycle';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import type { LocalRuntime, RuntimeError } from '../runtime/LocalRuntime.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import type { Clock, Timer } from '@wework/ports';
import type { ThreadEnvironment } from '../runtime/WegentRuntimeToken.js';
import { steerMissedTurn, taskDeliveries, type DeliveryOutcome } from './TaskDeliveries.js';
import type { ModelRouterRegistry } from './ModelRouterRegistry.js';
import { copyJson, type ExecutionRequest, type ModelSelection, type TaskRecord } from './TaskRecord.js';
import { threadConfigFor, type ModelRouterRegistrationMissing, type TaskThreadConfig } from './TaskThreadConfig.js';

/** Why a task operation failed. */
export type TaskError =
  | { readonly _tag: 'TaskNotFound'; readonly taskId: string }
  | { readonly _tag: 'TaskExists'; readonly taskId: string }
  | { readonly _tag: 'TaskArchived'; readonly taskId: string }
  | ModelRouterRegistrationMissing
  | { readonly _tag: 'Runtime'; readonly error: RuntimeError };

/** What a new task is made of. */
export interface NewTask {
  readonly taskId: string;
  readonly modelSelection: ModelSelection;
  readonly executionRequest: ExecutionRequest;
}

/** A fork: the new task, and what the app-server's `thread/fork` answered. */
export interface ForkOutcome {
  readonly task: TaskRecord;
  readonly model: string;
  readonly modelProvider: string;
  readonly activePermissionProfile: ActivePermissionProfile | null;
  readonly cwd: string;
}

/** A message for {@link TaskRuntime.deliver}: its composed input, how to deliver it, and the model selection its turn saves. */
export interface DeliverMessage {
  readonly input: ReadonlyArray<UserInputStrict>;
  readonly delivery: Delivery;
  /** Why it cannot join a running turn, if so (a steer of it while a turn runs is refused). */
  readonly unsteerable?: string;
  /** Saved on the task when the message starts its turn (as `send` saves it). */
  readonly modelSelection?: ModelSelection;
}

/** Options of {@link taskRuntime}. */
export interface TaskRuntimeOptions {
  readonly runtime: RuntimeSupervisor;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly registry: ModelRouterRegistry;
  readonly log: ExecutorLog;
  /** Idle timeout and idle cap; default 30 minutes and four threads. */
  readonly lifecycle?: LifecycleConfig;
  /** The config overrides every thread call of a task carries (the runtime token); default none. */
  readonly environment?: ThreadEnvironment;
}

/** The executor's tasks. */
export interface TaskRuntime {
  /** Starts the task's thread with its model, provider, permission mode and workspace. */
  create(task: NewTask): Promise<E.Either<TaskError, TaskRecord>>;
  /** Opens a persisted task (its thread is resumed before its next turn). */
  open(task: TaskRecord): E.Either<TaskError, TaskRecord>;
  /** The task's current fields. */
  get(taskId: string): TaskRecord | undefined;
  list(): ReadonlyArray<TaskRecord>;
  /**
   * Runs one user turn of the task (resuming its thread first when it was released), with the task's
   * permissions and model. `modelSelection`, when given, is saved first (the composer's current choice).
   */
  send(taskId: string, input: ReadonlyArray<UserInputStrict>, modelSelection?: ModelSelection, onStarted?: (turnId: string) => void): Promise<E.Either<TaskError, Turn>>;
  /**
   * Delivers a message to the task: with no turn running it starts one (`send`); while one runs it is
   * steered into it or queued for a turn of its own, as `delivery` says (see `@wework/thread-lifecycle`'s
   * `deliveryStep`). Resolves once the turn it started or joined ended, or it was cancelled or refused.
   */
  deliver(taskId: string, message: DeliverMessage): Promise<DeliveryOutcome<TaskError>>;
  /** Adds input to the task's running turn `turnId` (`turn/steer`). */
  steer(taskId: string, turnId: string, input: ReadonlyArray<UserInputStrict>): Promise<E.Either<TaskError, void>>;
  /** Cancels the task's cards and waiting messages, and interrupts its turn. */
  stop(taskId: string): Promise<E.Either<TaskError, void>>;
  /** Archives the task: `thread/unsubscribe` at once (or when its running turn ends), then `thread/archive`. */
  archive(taskId: string): Promise<E.Either<TaskError, void>>;
  /** Forks the task's thread (through `lastTurnId` when given) into `newTaskId`, copying its model selection and execution request. */
  fork(sourceTaskId: string, fork: { readonly newTaskId: string; readonly lastTurnId?: string }): Promise<E.Either<TaskError, ForkOutcome>>;
  /**
   * The lifecycle state of the task's thread (`Started` before its first turn). For tests and diagnostics:
   * no host protocol result carries it.
   */
  threadStatus(taskId: string): ThreadStatus | undefined;
  /** Resolves once every lifecycle command sent so far has been answered. */
  settled(): Promise<void>;
  /** Disarms the timer. */
  dispose(): void;
}

/** Codex answered the request with an error (it was not lost, timed out or refused as overloaded). */
const codexRefused = (error: TaskError): boolean => error._tag === 'Runtime' && error.error._tag === 'RequestFailed';

/** Tasks over the supervisor's app-server. */
export function taskRuntime(options: TaskRuntimeOptions): TaskRuntime {
  const { clock, timer, registry, log } = options;
  const environment: ThreadEnvironment = options.environment ?? { version: () => 0, overrides: () => ({}) };
  /** The environment version each thread was last started, resumed or forked with on its app-server. */
  const loadedWith = new Map<string, number>();
  /** The thread params of a call of a task, with the current environment (its version is recorded once the call succeeded). */
  const configFor = (task: Pick<TaskRecord, 'taskId' | 'modelSelection' | 'executionRequest'>, call: Parameters<typeof threadConfigFor>[1]) => {
    const version = environment.version();
    return { version, config: threadConfigFor(task, call, registry, environment.overrides()) };
  };
  const tasks = new Map<string, TaskRecord>();
  const lifecycle: ThreadLifecycle = makeThreadLifecycle(options.lifecycle);
  /** Threads started by `create` with no completed turn yet, and the runtime they were started on. */
  const noRollout = new Map<string, LocalRuntime>();
  /**
   * Threads of `noRollout` that ran a turn (it failed or the app-server died under it): Codex may have
   * written their rollout, so after a restart their resume is tried before a new thread replaces them.
   */
  const turnTried = new Set<string>();
  let seen: LocalRuntime = options.runtime.current();
  /** Each thread's queue of lifecycle commands (its last queued step); a thread with nothing queued has none. */
  const queues = new Map<string, Promise<void>>();

  /** The running runtime; a new one means the app-server restarted, and every thread was released with it. */
  const current = (): LocalRuntime => {
    const runtime = options.runtime.current();
    if (runtime !== seen) {
      seen = runtime;
      lifecycle.appServerRestarted(clock.now());
      log({ event: 'threads released by app-server restart', fields: {} });
      rearm();
    }
    return runtime;
  };

  const rearm = (): void => {
    const deadline = lifecycle.nextDeadline();
    if (deadline === null) timer.clear();
    else timer.set(deadline, () => spread(lifecycle.tick(clock.now())));
  };

  const taskOfThread = (threadId: string): TaskRecord | undefined => [...tasks.values()].find((task) => task.threadId === threadId);

  const unsubscribe = async (threadId: string, reason: UnsubscribeReason): Promise<void> => {
    const reply = await current().server.client.request(ThreadUnsubscribe, { threadId });
    const shown = reason === 'unused' ? 'archive (no turn yet)' : reason;
    log({ event: 'thread unsubscribed', fields: { threadId, reason: shown, status: E.isRight(reply) ? reply.right.status : describeClientError(reply.left) } });
    await run(threadId, lifecycle.unsubscribed(threadId, clock.now()));
  };

  const archiveThread = async (command: ArchiveThread): Promise<void> => {
    const { threadId } = command;
    const archived = await current().server.client.request(ThreadArchive, { threadId });
    if (!command.releasedBefore) log({ event: 'thread archived', fields: { threadId, ...(E.isLeft(archived) ? { error: describeClientError(archived.left) } : {}) } });
    // Released before (idle, cap or restart): the archive was its only request; only its failure is told.
    else if (E.isLeft(archived)) log({ event: 'thread archive failed', fields: { threadId, error: describeClientError(archived.left) } });
  };

  const resume = async (threadId: string): Promise<E.Either<TaskError, void>> => {
    const task = taskOfThread(threadId);
    if (task === undefined) return E.right(undefined);
    const { version, config } = configFor(task, 'thread/resume');
    if (E.isLeft(config)) return config;
    const resumed = await current().resumeThread(threadId, threadParams(config.right));
    if (E.isRight(resumed)) loadedWith.set(threadId, version);
    log({ event: 'thread resumed', fields: { threadId, ...(E.isLeft(resumed) ? { error: resumed.left._tag } : {}) } });
    return E.isLeft(resumed) ? E.left({ _tag: 'Runtime', error: resumed.left }) : E.right(undefined);
  };

  /**
   * Runs the commands of `threadId` in order (a Resume's failure is returned: the follow-up cannot go on);
   * the commands of other threads go into their own queues, without this thread waiting for them.
   */
  const run = async (threadId: string, commands: ReadonlyArray<LifecycleCommand>): Promise<E.Either<TaskError, void>> => {
    rearm();
    spread(commands.filter((command) => command.threadId !== threadId));
    for (const command of commands) {
      if (command.threadId !== threadId) continue;
      if (command._tag === 'Unsubscribe') await unsubscribe(command.threadId, command.reason);
      else if (command._tag === 'ArchiveThread') await archiveThread(command);
      else {
        const resumed = await resume(command.threadId);
        if (E.isLeft(resumed)) return resumed;
      }
    }
    rearm();
    return E.right(undefined);
  };

  /**
   * Queues the thread's commands behind the ones of that thread already queued, so its unsubscribe and
   * resume never cross; resolves once they ran (at once in order when its queue is empty).
   */
  const enqueue = (threadId: string, commands: ReadonlyArray<LifecycleCommand>): Promise<E.Either<TaskError, void>> => {
    const result = (queues.get(threadId) ?? Promise.resolve()).then(() => run(threadId, commands));
    const tail = result.then(
      () => undefined,
      (error: unknown) => log({ event: 'lifecycle command failed', fields: { error: String(error) } }),
    );
    queues.set(threadId, tail);
    void tail.then(() => {
      if (queues.get(threadId) === tail) queues.delete(threadId);
    });
    return result;
  };

  /** Queues commands, each in its thread's queue, without waiting for them (nobody's next step depends on them). */
  const spread = (commands: ReadonlyArray<LifecycleCommand>): void => {
    for (const threadId of new Set(commands.map((command) => command.threadId))) {
      void enqueue(
        threadId,
        commands.filter((command) => command.threadId === threadId),
      );
    }
  };

  /** Resolves once every thread's queue has run what was queued (also what got queued meanwhile). */
  const settled = async (): Promise<void> => {
    for (let tails = [...queues.values()]; tails.length > 0; tails = [...queues.values()]) await Promise.all(tails);
  };

  const threadParams = (config: TaskThreadConfig) => ({
    ...(config.permissions === undefined ? {} : { permissions: config.permissions }),
    ...(config.approvalPolicy === undefined ? {} : { approvalPolicy: config.approvalPolicy }),
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.modelProvider === undefined ? {} : { modelProvider: config.modelProvider }),
    ...(config.config === undefined ? {} : { config: config.config }),
    cwd: config.cwd,
  });

  const found = (taskId: string): E.Either<TaskError, TaskRecord> => {
    const task = tasks.get(taskId);
    return task === undefined ? E.left({ _tag: 'TaskNotFound', taskId }) : E.right(task);
  };

  const create = async (input: NewTask): Promise<E.Either<TaskError, TaskRecord>> => {
    if (tasks.has(input.taskId)) return E.left({ _tag: 'TaskExists', taskId: input.taskId });
    const { version, config } = configFor(input, 'thread/start');
    if (E.isLeft(config)) return config;
    const { cwd, ...params } = threadParams(config.right);
    const started = await current().startThread(params, { cwd });
    if (E.isLeft(started)) return E.left({ _tag: 'Runtime', error: started.left });
    loadedWith.set(started.right.threadId, version);
    const task: TaskRecord = { taskId: input.taskId, threadId: started.right.threadId, modelSelection: copyJson(input.modelSelection), executionRequest: copyJson(input.executionRequest), archived: false };
    tasks.set(task.taskId, task);
    spread(lifecycle.threadStarted(task.threadId, clock.now()));
    noRollout.set(task.threadId, seen);
    return E.right(task);
  };

  const open = (task: TaskRecord): E.Either<TaskError, TaskRecord> => {
    if (tasks.has(task.taskId)) return E.left({ _tag: 'TaskExists', taskId: task.taskId });
    const copy = copyJson(task);
    tasks.set(copy.taskId, copy);
    return E.right(copy);
  };

  const send = async (taskId: string, input: ReadonlyArray<UserInputStrict>, modelSelection?: ModelSelection, onStarted?: (turnId: string) => void): Promise<E.Either<TaskError, Turn>> => {
    const known = found(taskId);
    if (E.isLeft(known)) return known;
    if (known.right.archived) return E.left({ _tag: 'TaskArchived', taskId });
    let task: TaskRecord = modelSelection === undefined ? known.right : { ...known.right, modelSelection: copyJson(modelSelection) };
    tasks.set(taskId, task);
    const config = threadConfigFor(task, 'turn/start', registry);
    if (E.isLeft(config)) return config;
    const runtime = current();
    const startedOn = noRollout.get(task.threadId);
    const restarted = startedOn !== undefined && startedOn !== runtime;
    if (restarted && !turnTried.has(task.threadId)) {
      // Its app-server is gone and it never ran a turn: nothing to resume, so a new thread takes its place.
      const renewed = await renewThread(task);
      if (E.isLeft(renewed)) return renewed;
      task = renewed.right;
    }
    const reloaded = await reloadIfStale(task, runtime);
    if (E.isLeft(reloaded)) return reloaded;
    task = reloaded.right;
    let { threadId } = task;
    // A new thread needs nothing before its first turn; one the app-server does not hold is resumed first,
    // in its queue. Either way the turn waits for no other thread's commands.
    if (lifecycle.status(threadId) === 'Started') await enqueue(threadId, lifecycle.followUp(threadId, clock.now()));
    else {
      const ready = await enqueue(threadId, lifecycle.followUp(threadId, clock.now()));
      if (E.isLeft(ready)) {
        await enqueue(threadId, lifecycle.turnCompleted(threadId, clock.now()));
        // A turn ran but none completed: Codex may have written a rollout, so the resume was tried first;
        // only when Codex refused it (nothing to resume) does a new thread take its place.
        if (!(restarted && codexRefused(ready.left))) return ready;
        const renewed = await renewThread(task);
        if (E.isLeft(renewed)) return renewed;
        task = renewed.right;
        threadId = task.threadId;
      } else if (restarted) {
        // Resumed on the new app-server: the thread has a rollout after all.
        noRollout.delete(threadId);
        turnTried.delete(threadId);
      }
    }
    if (noRollout.has(threadId)) turnTried.add(threadId);
    lifecycle.turnStarted(threadId, clock.now());
    rearm();
    const { permissions, approvalPolicy, model } = config.right;
    const turn = await runtime.runTurn(threadId, input, {
      ...(permissions === undefined ? {} : { permissions }),
      ...(approvalPolicy === undefined ? {} : { approvalPolicy }),
      ...(model === undefined ? {} : { model }),
    }, onStarted);
    await enqueue(threadId, lifecycle.turnCompleted(threadId, clock.now()));
    if (E.isRight(turn) && (turn.right.status === 'completed' || turn.right.status === 'interrupted')) {
      noRollout.delete(threadId);
      turnTried.delete(threadId);
    }
    return E.isLeft(turn) ? E.left({ _tag: 'Runtime', error: turn.left }) : E.right(turn.right);
  };

  /**
   * Before a turn: a thread loaded (on this app-server) with an older environment takes the current one.
   * An idle thread is released now (its follow-up resumes it with the new overrides); a new thread of
   * `create` that never ran a turn has no rollout, so a new thread takes its place and the old one is
   * released. A forked thread before its first turn keeps what it was forked with until that turn ends.
   */
  const reloadIfStale = async (task: TaskRecord, runtime: LocalRuntime): Promise<E.Either<TaskError, TaskRecord>> => {
    const { threadId } = task;
    const loaded = loadedWith.get(threadId);
    if (loaded === undefined || loaded === environment.version()) return E.right(task);
    const status = lifecycle.status(threadId);
    if (status === 'Idle') {
      log({ event: 'thread reloaded for a new environment', fields: { taskId: task.taskId, threadId } });
      await enqueue(threadId, lifecycle.reload(threadId, clock.now()));
      return E.right(task);
    }
    if (status !== 'Started' || noRollout.get(threadId) !== runtime) return E.right(task);
    const renewed = await renewThread(task, 'new environment before its first turn');
    if (E.isLeft(renewed)) return renewed;
    await enqueue(threadId, lifecycle.archive(threadId, clock.now()));
    return renewed;
  };

  /**
   * Starts a new thread for a task whose thread has no rollout to resume: it was lost with its app-server
   * before its first turn, or it must take new config overrides before it.
   */
  const renewThread = async (task: TaskRecord, why: 'lost before its first turn' | 'new environment before its first turn' = 'lost before its first turn'): Promise<E.Either<TaskError, TaskRecord>> => {
    const { version, config } = configFor(task, 'thread/start');
    if (E.isLeft(config)) return config;
    const { cwd, ...params } = threadParams(config.right);
    const started = await current().startThread(params, { cwd });
    if (E.isLeft(started)) return E.left({ _tag: 'Runtime', error: started.left });
    loadedWith.set(started.right.threadId, version);
    loadedWith.delete(task.threadId);
    noRollout.delete(task.threadId);
    turnTried.delete(task.threadId);
    const renewed: TaskRecord = { ...task, threadId: started.right.threadId };
    tasks.set(task.taskId, renewed);
    spread(lifecycle.threadStarted(renewed.threadId, clock.now()));
    noRollout.set(renewed.threadId, seen);
    log({ event: `thread started again: ${why}`, fields: { taskId: task.taskId, previous: task.threadId, threadId: renewed.threadId } });
    return E.right(renewed);
  };

  const steer = async (taskId: string, turnId: string, input: ReadonlyArray<UserInputStrict>): Promise<E.Either<TaskError, void>> => {
    const task = found(taskId);
    if (E.isLeft(task)) return task;
    const steered = await current().steerTurn(task.right.threadId, turnId, input);
    return E.isLeft(steered) ? E.left({ _tag: 'Runtime', error: steered.left }) : E.right(undefined);
  };

  const deliveries = taskDeliveries<TaskError>({
    steer,
    interrupt: async (taskId) => {
      const task = tasks.get(taskId);
      if (task !== undefined) await current().stopTurn(task.threadId);
    },
    missedTurn: (error) => error._tag === 'Runtime' && steerMissedTurn(error.error),
    thrown: (error) => ({ _tag: 'Runtime', error: { _tag: 'TurnDidNotFinish', reason: String(error) } }),
    log,
  });

  const deliver = async (taskId: string, message: DeliverMessage): Promise<DeliveryOutcome<TaskError>> => {
    const known = found(taskId);
    if (E.isLeft(known)) return { _tag: 'Failed', error: known.left };
    if (known.right.archived) return { _tag: 'Failed', error: { _tag: 'TaskArchived', taskId } };
    return deliveries.deliver(taskId, {
      input: message.input,
      delivery: message.delivery,
      ...(message.unsteerable === undefined ? {} : { unsteerable: message.unsteerable }),
      start: (onStarted) => send(taskId, message.input, message.modelSelection, onStarted),
    });
  };

  const stop = async (taskId: string): Promise<E.Either<TaskError, void>> => {
    const task = found(taskId);
    if (E.isLeft(task)) return task;
    await deliveries.stop(taskId);
    return E.right(undefined);
  };

  const archive = async (taskId: string): Promise<E.Either<TaskError, void>> => {
    const task = found(taskId);
    if (E.isLeft(task)) return task;
    if (task.right.archived) return E.right(undefined);
    tasks.set(taskId, { ...task.right, archived: true });
    current();
    const { threadId } = task.right;
    // The lifecycle says what to send: unsubscribe (at once or when the running turn ends) and then
    // thread/archive, thread/archive alone for a thread released before, and only the unsubscribe for a
    // thread that never ran a turn (nothing of it is on disk; it waits for no other thread's commands).
    if (lifecycle.status(threadId) === 'Started') return enqueue(threadId, lifecycle.archiveInCodex(threadId, clock.now()));
    const commands = lifecycle.archiveInCodex(threadId, clock.now());
    // The thread/archive of a thread released before goes out once its queue has come to it, without holding the queue.
    const alone = commands.filter((command) => command._tag === 'ArchiveThread' && command.releasedBefore);
    const archived = await enqueue(threadId, commands.filter((command) => !alone.includes(command)));
    return E.isRight(archived) ? run(threadId, alone) : archived;
  };

  const fork = async (sourceTaskId: string, request: { readonly newTaskId: string; readonly lastTurnId?: string }): Promise<E.Either<TaskError, ForkOutcome>> => {
    const source = found(sourceTaskId);
    if (E.isLeft(source)) return source;
    if (tasks.has(request.newTaskId)) return E.left({ _tag: 'TaskExists', taskId: request.newTaskId });
    const { version, config } = configFor(source.right, 'thread/fork');
    if (E.isLeft(config)) return config;
    const forked = await current().forkThread(source.right.threadId, { ...threadParams(config.right), ...(request.lastTurnId === undefined ? {} : { lastTurnId: request.lastTurnId }) });
    if (E.isLeft(forked)) return E.left({ _tag: 'Runtime', error: forked.left });
    loadedWith.set(forked.right.threadId, version);
    if (config.right.registration !== null) registry.bind(request.newTaskId, config.right.registration);
    const task: TaskRecord = {
      taskId: request.newTaskId,
      threadId: forked.right.threadId,
      modelSelection: copyJson(source.right.modelSelection),
      executionRequest: copyJson(source.right.executionRequest),
      archived: false,
    };
    tasks.set(task.taskId, task);
    spread(lifecycle.threadStarted(task.threadId, clock.now()));
    log({ event: 'task forked', fields: { sourceTaskId, taskId: task.taskId, threadId: task.threadId, routed: config.right.registration !== null } });
    const { model, modelProvider, activePermissionProfile, cwd } = forked.right;
    return E.right({ task, model, modelProvider, activePermissionProfile, cwd });
  };

  return {
    create,
    open,
    get: (taskId) => tasks.get(taskId),
    list: () => [...tasks.values()],
    send,
    deliver,
    steer,
    stop,
    archive,
    fork,
    threadStatus: (taskId) => {
      const task = tasks.get(taskId);
      return task === undefined ? undefined : lifecycle.status(task.threadId);
    },
    settled,
    dispose: () => timer.clear(),
  };
}
