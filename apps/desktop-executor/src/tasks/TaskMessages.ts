/**
 * Messages to a task's thread: `deliver` by the delivery rules of `@wework/thread-lifecycle`'s
 * `deliveryStep` (`TaskDeliveries` carries them out: a turn of its own, `turn/steer` into the running turn,
 * or queued), `steer`, and `stop`, which cancels the waiting messages and interrupts the turn.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Log } from '@wework/ports';
import type { LocalRuntime } from '../runtime/LocalRuntime.js';
import { steerMissedTurn, taskDeliveries } from './TaskDeliveries.js';
import type { TaskRecord } from '@wework/host-protocol';
import type { TaskError, TaskRuntime } from './TaskRuntimeApi.js';

/** What {@link taskMessages} works with. */
export interface TaskMessagesOptions {
  /** The task as it is now, or `TaskNotFound`. */
  readonly found: (taskId: string) => E.Either<TaskError, TaskRecord>;
  /** Runs one turn of the task (the task runtime's `send`). */
  readonly send: TaskRuntime['send'];
  /** The running runtime. */
  readonly runtime: () => LocalRuntime;
  readonly log: Log;
}

/** `deliver`, `steer` and `stop` of the task runtime. */
export function taskMessages(options: TaskMessagesOptions): Pick<TaskRuntime, 'deliver' | 'steer' | 'stop'> {
  const { found, send, runtime, log } = options;
  const steer = async (taskId: string, turnId: string, input: Parameters<TaskRuntime['steer']>[2]): Promise<E.Either<TaskError, void>> => {
    const task = found(taskId);
    if (E.isLeft(task)) return task;
    const steered = await runtime().steerTurn(task.right.threadId, turnId, input);
    return E.isLeft(steered) ? E.left({ _tag: 'Runtime', error: steered.left }) : E.right(undefined);
  };
  const deliveries = taskDeliveries<TaskError>({
    steer,
    interrupt: async (taskId) => {
      const task = found(taskId);
      if (E.isRight(task)) await runtime().stopTurn(task.right.threadId);
    },
    missedTurn: (error) => error._tag === 'Runtime' && steerMissedTurn(error.error),
    thrown: (error) => ({ _tag: 'Runtime', error: { _tag: 'TurnDidNotFinish', reason: String(error) } }),
    log,
  });
  return {
    deliver: async (taskId, message) => {
      const known = found(taskId);
      if (E.isLeft(known)) return { _tag: 'Failed', error: known.left };
      if (known.right.archived) return { _tag: 'Failed', error: { _tag: 'TaskArchived', taskId } };
      const { input, delivery, unsteerable, modelSelection } = message;
      return deliveries.deliver(taskId, { input, delivery, ...(unsteerable === undefined ? {} : { unsteerable }), start: (onStarted) => send(taskId, input, modelSelection, onStarted) });
    },
    steer,
    stop: async (taskId) => {
      const task = found(taskId);
      if (E.isLeft(task)) return task;
      await deliveries.stop(taskId);
      return E.right(undefined);
    },
  };
}
