/**
 * Carries out what `@wework/thread-lifecycle`'s `deliveryStep` decides for the messages of each task:
 * starts a turn with a message, steers a message into the running turn (`turn/steer`), interrupts the
 * turn, answers a waiting message cancelled or refused. It reports back when a turn started and ended
 * and how each steer was answered. Every message is answered exactly once: with the turn it started or
 * joined once that turn ended, as cancelled, or with a refusal or an error.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Turn, UserInputStrict } from '@wework/codex-protocol';
import { deliveryStep, idleDelivery, type Delivered, type Delivery, type DeliveryCommand, type DeliveryEvent, type DeliveryRefusal, type DeliveryState, type UnsteerableReason } from '@wework/thread-lifecycle';
import type { Log } from '@wework/ports';
import type { RuntimeFault } from '@wework/host-errors';

/** A message to deliver to a task. */
export interface TaskMessage<Failure> {
  readonly input: ReadonlyArray<UserInputStrict>;
  readonly delivery: Delivery;
  /** Why it cannot join a running turn (it names skills, plugins or apps, or changes the task's settings), if so. */
  readonly unsteerable?: UnsteerableReason;
  /** Starts a turn of the task with the message; `onStarted` is told the turn's id once `turn/start` answered it. */
  readonly start: (onStarted: (turnId: string) => void) => Promise<E.Either<Failure, Turn>>;
}

/** What became of a delivered message. */
export type DeliveryOutcome<Failure> =
  | { readonly _tag: 'Ran'; readonly delivered: Delivered; readonly turn: Turn }
  | { readonly _tag: 'Cancelled' }
  | { readonly _tag: 'Refused'; readonly refusal: DeliveryRefusal }
  | { readonly _tag: 'Failed'; readonly error: Failure };

/** Options of {@link taskDeliveries}. */
export interface TaskDeliveriesOptions<Failure> {
  /** `turn/steer` of the task's running turn. */
  readonly steer: (taskId: string, turnId: string, input: ReadonlyArray<UserInputStrict>) => Promise<E.Either<Failure, void>>;
  /** Interrupts the task's running turn (and cancels its cards). */
  readonly interrupt: (taskId: string) => Promise<void>;
  /** Whether a steer's error says the turn was no longer the active one (it ended meanwhile). */
  readonly missedTurn: (error: Failure) => boolean;
  /** The failure a turn start that threw is answered with (a start is not expected to throw). */
  readonly thrown: (error: unknown) => Failure;
  readonly log: Log;
}

/** Every task's deliveries. */
export interface TaskDeliveries<Failure> {
  /** Delivers the message by the task's delivery rules; resolves once it is answered. */
  deliver(taskId: string, message: TaskMessage<Failure>): Promise<DeliveryOutcome<Failure>>;
  /**
   * Cancels the task's waiting messages and interrupts its running turn (`interrupt`, at once, and again
   * once the id of a turn that was still starting is known).
   */
  stop(taskId: string): Promise<void>;
}

/** Whether a runtime error is Codex refusing a steer because its turn is no longer the active one. */
export const steerMissedTurn = (error: RuntimeFault): boolean =>
  error._tag === 'RequestFailed' && error.method === 'turn/steer' && /no active turn|expected active turn id/.test(error.reason);

interface Pending<Failure> {
  readonly message: TaskMessage<Failure>;
  readonly answer: (outcome: DeliveryOutcome<Failure>) => void;
}

/** The deliveries of every task, each task with its own state. */
export function taskDeliveries<Failure>(options: TaskDeliveriesOptions<Failure>): TaskDeliveries<Failure> {
  const states = new Map<string, DeliveryState>();
  const pending = new Map<string, Pending<Failure>>();
  /** Each running turn's end, by task and turn id: a steered message is answered with it. */
  const turnEnds = new Map<string, Promise<E.Either<Failure, Turn>>>();
  let next = 0;

  const turnKey = (taskId: string, turnId: string): string => JSON.stringify([taskId, turnId]);

  const answer = (messageId: string, outcome: DeliveryOutcome<Failure>): void => {
    const waiting = pending.get(messageId);
    pending.delete(messageId);
    waiting?.answer(outcome);
  };

  /** Applies the event; `interrupted` when the caller interrupts the running turn itself (a stop does). */
  const dispatch = (taskId: string, event: DeliveryEvent, interrupted = false): void => {
    const [state, commands] = deliveryStep(states.get(taskId) ?? idleDelivery, event);
    if (state.turn === null && state.steering.length === 0 && state.queued.length === 0 && state.pendingSteers.length === 0) states.delete(taskId);
    else states.set(taskId, state);
    for (const command of commands) if (!(interrupted && command._tag === 'InterruptTurn')) run(taskId, command);
  };

  const run = (taskId: string, command: DeliveryCommand): void => {
    switch (command._tag) {
      case 'StartTurn':
        return startTurn(taskId, command.messageId, command.delivered);
      case 'SteerTurn':
        return void steer(taskId, command.messageId, command.turnId);
      case 'InterruptTurn':
        options.log({ event: 'stopped turn interrupted once started', fields: { taskId, turnId: command.turnId } });
        return void options.interrupt(taskId);
      case 'Cancel':
        return answer(command.messageId, { _tag: 'Cancelled' });
      case 'Refuse':
        return answer(command.messageId, { _tag: 'Refused', refusal: command.refusal });
    }
  };

  const startTurn = (taskId: string, messageId: string, delivered: 'started' | 'queued'): void => {
    const waiting = pending.get(messageId);
    if (waiting === undefined) return;
    let resolveEnd: (ended: E.Either<Failure, Turn>) => void = () => undefined;
    const end = new Promise<E.Either<Failure, Turn>>((resolve) => (resolveEnd = resolve));
    let turnId: string | null = null;
    void waiting.message
      .start((id) => {
        turnId = id;
        turnEnds.set(turnKey(taskId, id), end);
        dispatch(taskId, { _tag: 'TurnStarted', turnId: id });
      })
      .catch((error: unknown): E.Either<Failure, Turn> => {
        options.log({ event: 'turn start threw', level: 'warn', fields: { taskId, error: String(error) } });
        return E.left(options.thrown(error));
      })
      .then((ended) => {
        resolveEnd(ended);
        answer(messageId, E.isRight(ended) ? { _tag: 'Ran', delivered, turn: ended.right } : { _tag: 'Failed', error: ended.left });
      })
      .finally(() => {
        if (turnId !== null) turnEnds.delete(turnKey(taskId, turnId));
        dispatch(taskId, { _tag: 'TurnEnded' });
      });
  };

  const steer = async (taskId: string, messageId: string, turnId: string): Promise<void> => {
    const waiting = pending.get(messageId);
    if (waiting === undefined) return;
    // The turn's end, taken before the steer goes out: the turn may end before Codex answers the steer.
    const end = turnEnds.get(turnKey(taskId, turnId));
    const steered = await options.steer(taskId, turnId, waiting.message.input);
    if (E.isRight(steered) && end !== undefined) {
      dispatch(taskId, { _tag: 'SteerAnswered', messageId, outcome: 'joined' });
      const ended = await end;
      answer(messageId, E.isRight(ended) ? { _tag: 'Ran', delivered: 'steered', turn: ended.right } : { _tag: 'Failed', error: ended.left });
      return;
    }
    if (E.isLeft(steered) && options.missedTurn(steered.left)) {
      options.log({ event: 'steer missed its turn', fields: { taskId, turnId } });
      return dispatch(taskId, { _tag: 'SteerAnswered', messageId, outcome: 'missed' });
    }
    dispatch(taskId, { _tag: 'SteerAnswered', messageId, outcome: 'failed' });
    if (E.isLeft(steered)) answer(messageId, { _tag: 'Failed', error: steered.left });
    // Joined a turn whose end is not followed here (cannot happen: a steer goes only to a turn started here).
    else {
      options.log({ event: 'steer joined a turn not followed', level: 'warn', fields: { taskId, turnId } });
      answer(messageId, { _tag: 'Cancelled' });
    }
  };

  return {
    deliver: (taskId, message) =>
      new Promise((resolve) => {
        next += 1;
        const messageId = `message-${next}`;
        pending.set(messageId, { message, answer: resolve });
        dispatch(taskId, { _tag: 'Submit', message: { messageId, delivery: message.delivery, ...(message.unsteerable === undefined ? {} : { unsteerable: message.unsteerable }) } });
      }),
    stop: async (taskId) => {
      const waiting = states.get(taskId);
      const count = waiting === undefined ? 0 : waiting.queued.length + waiting.pendingSteers.length;
      dispatch(taskId, { _tag: 'Stop' }, true);
      if (count > 0) options.log({ event: 'waiting messages cancelled by stop', fields: { taskId, count } });
      await options.interrupt(taskId);
    },
  };
}
