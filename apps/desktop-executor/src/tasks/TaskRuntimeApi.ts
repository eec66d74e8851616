/**
 * What the task runtime offers and how it fails: its interface, its options, and the values it takes and
 * returns. `TaskRuntime.ts` carries it out.
 */
import type * as E from 'fp-ts/lib/Either.js';
import type { ActivePermissionProfile, Turn, UserInputStrict } from '@wework/codex-protocol';
import type { Delivery, LifecycleConfig, ThreadStatus, UnsteerableReason } from '@wework/thread-lifecycle';
import type { Clock, Log, Timer } from '@wework/ports';
import type { RuntimeFault } from '@wework/host-errors';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import type { ThreadEnvironment } from '../runtime/WegentRuntimeToken.js';
import type { DeliveryOutcome } from './TaskDeliveries.js';
import type { ModelRouterRegistry } from './ModelRouterRegistry.js';
import type { ExecutionRequest, ModelSelection, TaskRecord } from '@wework/host-protocol';
import type { ModelRouterRegistrationMissing } from './TaskThreadConfig.js';

/** Why a task operation failed. */
export type TaskError =
  | { readonly _tag: 'TaskNotFound'; readonly taskId: string }
  | { readonly _tag: 'TaskExists'; readonly taskId: string }
  | { readonly _tag: 'TaskArchived'; readonly taskId: string }
  | ModelRouterRegistrationMissing
  | { readonly _tag: 'Runtime'; readonly error: RuntimeFault };

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
  readonly unsteerable?: UnsteerableReason;
  /** Saved on the task when the message starts its turn (as `send` saves it). */
  readonly modelSelection?: ModelSelection;
}

/** Options of {@link taskRuntime}. */
export interface TaskRuntimeOptions {
  readonly runtime: RuntimeSupervisor;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly registry: ModelRouterRegistry;
  readonly log: Log;
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
