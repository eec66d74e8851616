/**
 * One queue of lifecycle commands per thread: a thread's commands run in order, behind the ones queued
 * before them (its unsubscribe and its resume never cross), and no thread waits for another thread's.
 * What a command does is the caller's `execute`; a failed command (a resume) ends its batch.
 */
import * as E from 'fp-ts/lib/Either.js';
import { isLifecycleCommand, type LifecycleCommand, type TaskCommand } from '@wework/thread-lifecycle';
import type { Log } from '@wework/ports';

/** The queues of every thread. */
export interface ThreadQueues<Failure> {
  /** Runs the commands of `threadId` now, in order; the other threads' lifecycle commands go to their queues. */
  run(threadId: string, commands: ReadonlyArray<TaskCommand>): Promise<E.Either<Failure, void>>;
  /** Queues the commands of `threadId` behind its queued ones; resolves once they ran. */
  enqueue(threadId: string, commands: ReadonlyArray<TaskCommand>): Promise<E.Either<Failure, void>>;
  /** Queues the commands of `threads` and waits for them (the first failure is returned); the others' go to their queues unawaited. */
  awaiting(threads: Iterable<string>, commands: ReadonlyArray<TaskCommand>): Promise<E.Either<Failure, void>>;
  /** Queues every thread's lifecycle commands without waiting for them. */
  spread(commands: ReadonlyArray<TaskCommand>): void;
  /** Resolves once every queue ran what was queued (also what got queued meanwhile). */
  settled(): Promise<void>;
}

const of = (threadId: string, commands: ReadonlyArray<TaskCommand>): LifecycleCommand[] =>
  commands.filter((command): command is LifecycleCommand => isLifecycleCommand(command) && command.threadId === threadId);

/** Queues that carry out each lifecycle command with `execute`. */
export function threadQueues<Failure>(execute: (command: LifecycleCommand) => Promise<E.Either<Failure, void>>, log: Log): ThreadQueues<Failure> {
  /** Each thread's last queued step; a thread with nothing queued has none. */
  const tails = new Map<string, Promise<unknown>>();
  const threadsOf = (commands: ReadonlyArray<TaskCommand>): Set<string> => new Set(commands.flatMap((command) => (isLifecycleCommand(command) ? [command.threadId] : [])));

  const run = async (threadId: string, commands: ReadonlyArray<TaskCommand>): Promise<E.Either<Failure, void>> => {
    spread(commands.filter((command) => isLifecycleCommand(command) && command.threadId !== threadId));
    for (const command of of(threadId, commands)) {
      const done = await execute(command);
      if (E.isLeft(done)) return done;
    }
    return E.right(undefined);
  };
  const enqueue = (threadId: string, commands: ReadonlyArray<TaskCommand>): Promise<E.Either<Failure, void>> => {
    const result = (tails.get(threadId) ?? Promise.resolve()).then(() => run(threadId, commands));
    const tail = result.catch((error: unknown) => log({ event: 'lifecycle command failed', fields: { error: String(error) } }));
    tails.set(threadId, tail);
    void tail.then(() => (tails.get(threadId) === tail ? tails.delete(threadId) : undefined));
    return result;
  };
  const spread = (commands: ReadonlyArray<TaskCommand>): void => {
    for (const threadId of threadsOf(commands)) void enqueue(threadId, of(threadId, commands));
  };
  const awaiting = async (threads: Iterable<string>, commands: ReadonlyArray<TaskCommand>): Promise<E.Either<Failure, void>> => {
    const own = new Set(threads);
    spread(commands.filter((command) => isLifecycleCommand(command) && !own.has(command.threadId)));
    const ran = await Promise.all([...own].map((threadId) => enqueue(threadId, of(threadId, commands))));
    return ran.find(E.isLeft) ?? E.right(undefined);
  };
  const settled = async (): Promise<void> => {
    for (let waiting = [...tails.values()]; waiting.length > 0; waiting = [...tails.values()]) await Promise.all(waiting);
  };
  return { run, enqueue, awaiting, spread, settled };
}
