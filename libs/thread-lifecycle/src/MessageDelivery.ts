/**
 * What becomes of a message sent to a conversation, also while one of its turns runs. The host chooses:
 * `steer` adds it to the running turn (Codex's `turn/steer`), `queue` gives it a turn of its own once the
 * running one ended. With no turn running either starts a turn. At most {@link MAX_WAITING_MESSAGES}
 * messages wait (queued ones, and steers waiting for the running turn's id or for their answer); one
 * more is refused. A stop cancels every message that waits and interrupts the running turn, also one
 * whose id is not known yet (it is interrupted as soon as its id is).
 *
 * One state per conversation; every step is (state, event) → [state, commands]. The host carries the
 * commands out and reports back: `turnStarted` when `turn/start` was answered, `turnEnded` when the turn
 * ended (or never started), `steerAnswered` when `turn/steer` was answered.
 *
 * Every function here is pure: no IO, no clock, no timers, no process.
 */

/** How a host wants a message delivered when a turn runs. */
export type Delivery = 'steer' | 'queue';

/** How a message was delivered: it started a turn, joined the running one, or waited for its own turn. */
export type Delivered = 'started' | 'steered' | 'queued';

/** How many messages of one conversation may wait at most. */
export const MAX_WAITING_MESSAGES = 16;

/** A message as the delivery rules see it: its id and how it should be delivered. */
export interface DeliveryMessage {
  readonly messageId: string;
  readonly delivery: Delivery;
  /**
   * Why the message cannot join a running turn ({@link unsteerableReason}), or absent when it can. Only
   * a steer while a turn runs looks at it.
   */
  readonly unsteerable?: UnsteerableReason;
}

/**
 * Why a message cannot join a running turn: it names skills, plugins or apps (`NamesSkillsPluginsOrApps`:
 * Codex applies them only when a turn starts), or it changes the model or the permission mode
 * (`ChangesSettings`: `turn/steer` carries input only). Queued, the same message applies in its own turn.
 */
export type UnsteerableReason = { readonly _tag: 'NamesSkillsPluginsOrApps' } | { readonly _tag: 'ChangesSettings' };

/**
 * Why a message with these Codex input items (`UserInput` of `turn/start`, of which only the `type` is
 * read) cannot join a running turn, or null when it can. Measured on
 * Codex 0.171.0: `turn/steer` carries input only (no permissions, no model: it ignores them), and a steered
 * skill mention does not bring its `SKILL.md` to the model (a plugin or app mention is the same kind of
 * input item). Only `text` and `localImage` items join a running turn; a mention wins over a settings change.
 *
 * @example
 * unsteerableReason([{ type: 'text' }, { type: 'localImage' }], false); // null
 * unsteerableReason([{ type: 'text' }, { type: 'skill' }], false); // { _tag: 'NamesSkillsPluginsOrApps' }
 * unsteerableReason([{ type: 'text' }], true); // { _tag: 'ChangesSettings' }
 */
export function unsteerableReason(input: ReadonlyArray<{ readonly type: string }>, changesSettings: boolean): UnsteerableReason | null {
  if (input.some((item) => item.type !== 'text' && item.type !== 'localImage')) return { _tag: 'NamesSkillsPluginsOrApps' };
  if (changesSettings) return { _tag: 'ChangesSettings' };
  return null;
}

/** The running turn: its id once `turn/start` answered it, and whether a stop asked to interrupt it. */
export interface RunningTurn {
  readonly turnId: string | null;
  readonly stopped: boolean;
}

/** One conversation's delivery state. */
export interface DeliveryState {
  readonly turn: RunningTurn | null;
  /** Queued messages, in the order they were sent. */
  readonly queued: ReadonlyArray<string>;
  /** Steers waiting for the running turn's id (or for the turn that refused them to end), in order. */
  readonly pendingSteers: ReadonlyArray<string>;
  /** Steers sent with `turn/steer`, not answered yet, and the turn each was sent to. */
  readonly steering: ReadonlyArray<{ readonly messageId: string; readonly turnId: string }>;
  /** Steers in flight when a stop came: a refusal of one of them cancels it instead of starting a turn. */
  readonly stoppedSteers: ReadonlyArray<string>;
}

/** No turn runs, nothing waits. */
export const idleDelivery: DeliveryState = { turn: null, queued: [], pendingSteers: [], steering: [], stoppedSteers: [] };

/** Why a message was refused. */
export type DeliveryRefusal =
  | { readonly _tag: 'QueueFull'; readonly limit: number }
  | { readonly _tag: 'NotSteerable'; readonly reason: UnsteerableReason };

/** What the host does next. */
export type DeliveryCommand =
  /** Start a turn with the message (`turn/start`); `delivered` is `started` or `queued`. */
  | { readonly _tag: 'StartTurn'; readonly messageId: string; readonly delivered: 'started' | 'queued' }
  /** Add the message to the running turn (`turn/steer` with `expectedTurnId: turnId`). */
  | { readonly _tag: 'SteerTurn'; readonly messageId: string; readonly turnId: string }
  /** Interrupt the running turn (`turn/interrupt`). */
  | { readonly _tag: 'InterruptTurn'; readonly turnId: string }
  /** Answer the message as cancelled: it never reached a turn. */
  | { readonly _tag: 'Cancel'; readonly messageId: string }
  /** Answer the message with a refusal. */
  | { readonly _tag: 'Refuse'; readonly messageId: string; readonly refusal: DeliveryRefusal };

/** What the host reports. */
export type DeliveryEvent =
  /** A message was sent. */
  | { readonly _tag: 'Submit'; readonly message: DeliveryMessage }
  /** `turn/start` of the running turn was answered with this id. */
  | { readonly _tag: 'TurnStarted'; readonly turnId: string }
  /** The running turn ended, or its `turn/start` failed. */
  | { readonly _tag: 'TurnEnded' }
  /**
   * `turn/steer` of a message was answered: `joined` (the message is part of the turn), `missed` (Codex
   * said the turn was no longer the active one) or `failed` (any other error; the host answers it).
   */
  | { readonly _tag: 'SteerAnswered'; readonly messageId: string; readonly outcome: 'joined' | 'missed' | 'failed' }
  /** The user stopped the conversation. */
  | { readonly _tag: 'Stop' };

/** A step's result: the new state and the commands to carry out, in order. */
export type DeliveryTransition = readonly [DeliveryState, ReadonlyArray<DeliveryCommand>];

/** How many messages wait (queued, steers pending or in flight). */
export const waitingCount = (state: DeliveryState): number => state.queued.length + state.pendingSteers.length + state.steering.length;

const remove = <A>(list: ReadonlyArray<A>, keep: (a: A) => boolean): ReadonlyArray<A> => list.filter(keep);

/**
 * Delivers a message that could not join the turn it was meant for, as if it was sent now: it steers
 * into the running turn whose id is known, waits for the id, or starts a turn when none runs.
 */
const redeliver = (state: DeliveryState, messageId: string, missedTurn: string | null): DeliveryTransition => {
  const { turn } = state;
  if (turn === null) return [{ ...state, turn: { turnId: null, stopped: false } }, [{ _tag: 'StartTurn', messageId, delivered: 'started' }]];
  // A turn a stop is interrupting takes nothing more: the message waits for it to end, then starts a turn.
  if (turn.turnId === null || turn.turnId === missedTurn || turn.stopped) return [{ ...state, pendingSteers: [...state.pendingSteers, messageId] }, []];
  return [{ ...state, steering: [...state.steering, { messageId, turnId: turn.turnId }] }, [{ _tag: 'SteerTurn', messageId, turnId: turn.turnId }]];
};

/**
 * One step of a conversation's deliveries.
 *
 * @example
 * ```ts
 * import { deliveryStep, idleDelivery } from '@wework/thread-lifecycle';
 *
 * const [running] = deliveryStep(idleDelivery, { _tag: 'Submit', message: { messageId: 'a', delivery: 'steer' } }); // StartTurn a (started)
 * const [started] = deliveryStep(running, { _tag: 'TurnStarted', turnId: 't1' });
 * const [withQueued] = deliveryStep(started, { _tag: 'Submit', message: { messageId: 'b', delivery: 'queue' } }); // nothing yet
 * deliveryStep(withQueued, { _tag: 'TurnEnded' }); // StartTurn b (queued)
 * ```
 */
export function deliveryStep(state: DeliveryState, event: DeliveryEvent): DeliveryTransition {
  switch (event._tag) {
    case 'Submit': {
      const { messageId, delivery, unsteerable } = event.message;
      const { turn } = state;
      if (turn === null) return [{ ...state, turn: { turnId: null, stopped: false } }, [{ _tag: 'StartTurn', messageId, delivered: 'started' }]];
      if (delivery === 'steer' && unsteerable !== undefined) return [state, [{ _tag: 'Refuse', messageId, refusal: { _tag: 'NotSteerable', reason: unsteerable } }]];
      if (waitingCount(state) >= MAX_WAITING_MESSAGES) return [state, [{ _tag: 'Refuse', messageId, refusal: { _tag: 'QueueFull', limit: MAX_WAITING_MESSAGES } }]];
      if (delivery === 'queue') return [{ ...state, queued: [...state.queued, messageId] }, []];
      return redeliver(state, messageId, null);
    }
    case 'TurnStarted': {
      const { turn } = state;
      if (turn === null || turn.turnId !== null) return [state, []];
      const { turnId } = event;
      if (turn.stopped) return [{ ...state, turn: { turnId, stopped: true } }, [{ _tag: 'InterruptTurn', turnId }]];
      const steers = state.pendingSteers.map((messageId) => ({ messageId, turnId }));
      return [
        { ...state, turn: { turnId, stopped: false }, pendingSteers: [], steering: [...state.steering, ...steers] },
        steers.map((steer): DeliveryCommand => ({ _tag: 'SteerTurn', ...steer })),
      ];
    }
    case 'TurnEnded': {
      if (state.turn === null) return [state, []];
      const [first, ...others] = state.pendingSteers;
      // A steer that never reached the turn was meant for now: it starts the next turn, ahead of the queue.
      if (first !== undefined) return [{ ...state, turn: { turnId: null, stopped: false }, pendingSteers: others }, [{ _tag: 'StartTurn', messageId: first, delivered: 'started' }]];
      const [next, ...rest] = state.queued;
      if (next !== undefined) return [{ ...state, turn: { turnId: null, stopped: false }, queued: rest }, [{ _tag: 'StartTurn', messageId: next, delivered: 'queued' }]];
      return [{ ...state, turn: null }, []];
    }
    case 'SteerAnswered': {
      const { messageId, outcome } = event;
      const sent = state.steering.find((steer) => steer.messageId === messageId);
      if (sent === undefined) return [state, []];
      const after: DeliveryState = { ...state, steering: remove(state.steering, (steer) => steer.messageId !== messageId), stoppedSteers: remove(state.stoppedSteers, (id) => id !== messageId) };
      if (outcome !== 'missed') return [after, []];
      if (state.stoppedSteers.includes(messageId)) return [after, [{ _tag: 'Cancel', messageId }]];
      return redeliver(after, messageId, sent.turnId);
    }
    case 'Stop': {
      const { turn } = state;
      const cancelled = [...state.pendingSteers, ...state.queued].map((messageId): DeliveryCommand => ({ _tag: 'Cancel', messageId }));
      const interrupt: ReadonlyArray<DeliveryCommand> = turn?.turnId === null || turn?.turnId === undefined ? [] : [{ _tag: 'InterruptTurn', turnId: turn.turnId }];
      return [
        { turn: turn === null ? null : { ...turn, stopped: true }, queued: [], pendingSteers: [], steering: state.steering, stoppedSteers: state.steering.map((steer) => steer.messageId) },
        [...cancelled, ...interrupt],
      ];
    }
  }
}

/** Applies events in order from `state`, collecting every command. */
export function deliverySteps(state: DeliveryState, events: ReadonlyArray<DeliveryEvent>): DeliveryTransition {
  let current = state;
  const commands: DeliveryCommand[] = [];
  for (const event of events) {
    const [next, emitted] = deliveryStep(current, event);
    current = next;
    commands.push(...emitted);
  }
  return [current, commands];
}
