/**
 * Runs one turn of a thread: `turn/start`, then follows the turn until its `turn/completed`, an abort,
 * a timeout or the end of the client, and says which as a `_tag`ged {@link TurnOutcome} with the items
 * the turn completed meanwhile. What a caller does during the turn (streaming deltas, answering server
 * requests) stays with the caller, through the client's listeners or `onStarted`.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ItemCompleted, TurnCompleted, TurnInterrupt, TurnStart, type ParamsOf, type ThreadItem, type Turn } from '@wework/codex-protocol';
import type { AppServerClient } from './AppServerClient.js';
import { describeClientErrorCategory, type ClientError, type TerminalError } from './ClientError.js';
import { MAX_DELAY_MS } from './internal/Delay.js';
import type { Disposable } from './internal/ListenerSet.js';
import { onClosed } from './onClosed.js';

/** The params of `turn/start`: the thread, the input and the turn's overrides. */
export type RunTurnParams = ParamsOf<typeof TurnStart>;

/** The default wait for `turn/completed` once `turn/start` was answered: 120 s. */
export const DEFAULT_TURN_TIMEOUT_MS = 120_000;

/** Options of {@link runTurn}. */
export interface RunTurnOptions {
  /** Aborting it stops following the turn: the outcome is `Aborted`. */
  readonly signal?: AbortSignal;
  /** How long to wait for `turn/completed` once `turn/start` was answered, on the client's `timers`; default 120 000 ms. */
  readonly timeoutMs?: number;
  /**
   * Whether a started turn that is given up (aborted or timed out) is interrupted with `turn/interrupt`
   * before `runTurn` resolves; default true. A turn aborted before `turn/start` was answered is
   * interrupted once the answer comes.
   */
  readonly interruptOnStop?: boolean;
  /** Told the turn as `turn/start` answered it (its id, to interrupt it or to route its notifications). */
  readonly onStarted?: (turn: Turn) => void;
}

/** The turn ended (`turn/completed`) with the status `completed`. */
export interface TurnCompletedOutcome {
  readonly _tag: 'Completed';
  readonly threadId: string;
  /** The turn as `turn/completed` reported it. */
  readonly turn: Turn;
  /** The items `item/completed` reported for the turn, in order. */
  readonly items: ReadonlyArray<ThreadItem>;
}

/** The turn ended (`turn/completed`) with the status `failed`; `turn.error` says why. */
export interface TurnFailedOutcome {
  readonly _tag: 'Failed';
  readonly threadId: string;
  readonly turn: Turn;
  readonly items: ReadonlyArray<ThreadItem>;
}

/** The turn ended (`turn/completed`) with the status `interrupted` (by anyone). */
export interface TurnInterruptedOutcome {
  readonly _tag: 'Interrupted';
  readonly threadId: string;
  readonly turn: Turn;
  readonly items: ReadonlyArray<ThreadItem>;
}

/** `turn/start` failed: no turn runs. */
export interface TurnStartFailed {
  readonly _tag: 'StartFailed';
  readonly threadId: string;
  readonly error: ClientError;
}

/** No `turn/completed` within `timeoutMs` of the start. */
export interface TurnTimedOut {
  readonly _tag: 'TimedOut';
  readonly threadId: string;
  readonly turnId: string;
  readonly timeoutMs: number;
  readonly items: ReadonlyArray<ThreadItem>;
}

/** The signal was aborted; `turnId` is null when it was aborted before `turn/start` was answered. */
export interface TurnAborted {
  readonly _tag: 'Aborted';
  readonly threadId: string;
  readonly turnId: string | null;
  readonly items: ReadonlyArray<ThreadItem>;
}

/**
 * The client ended under the started turn (the app-server exited, its output closed, or the client was
 * disposed). No `turn/completed` will come for it: `turn` is the turn as it ended for this client — the
 * turn `turn/start` answered, `failed`, with an error that names the end by its category (never a text
 * of the app-server's), for a caller that tells its own listeners the turn is over.
 */
export interface TurnClientClosed {
  readonly _tag: 'ClientClosed';
  readonly threadId: string;
  readonly turnId: string;
  readonly error: TerminalError;
  readonly turn: Turn;
  readonly items: ReadonlyArray<ThreadItem>;
}

/** How {@link runTurn} ended. */
export type TurnOutcome = TurnCompletedOutcome | TurnFailedOutcome | TurnInterruptedOutcome | TurnStartFailed | TurnTimedOut | TurnAborted | TurnClientClosed;

/** The outcomes in which the turn ended on the app-server's side, with its `turn/completed`. */
export type TurnEnded = TurnCompletedOutcome | TurnFailedOutcome | TurnInterruptedOutcome;

/** Whether the outcome carries the turn's `turn/completed`. */
export const isTurnEnded = (outcome: TurnOutcome): outcome is TurnEnded =>
  outcome._tag === 'Completed' || outcome._tag === 'Failed' || outcome._tag === 'Interrupted';

const endedOutcome = (threadId: string, turn: Turn, items: ReadonlyArray<ThreadItem>): TurnEnded => {
  switch (turn.status) {
    case 'failed':
      return { _tag: 'Failed', threadId, turn, items };
    case 'interrupted':
      return { _tag: 'Interrupted', threadId, turn, items };
    default:
      return { _tag: 'Completed', threadId, turn, items };
  }
};

/** The started turn as it ended when the client closed under it: failed, with the end's category. */
const lostTurn = (started: Turn, error: TerminalError): Turn => ({
  ...started,
  status: 'failed',
  error: { message: `the turn was lost: ${describeClientErrorCategory(error)}`, codexErrorInfo: null, additionalDetails: null, misalignment: null },
  completedAt: null,
  durationMs: null,
});

const timeoutOf = (ms: number | undefined): number =>
  ms !== undefined && Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_DELAY_MS) : DEFAULT_TURN_TIMEOUT_MS;

type Stop = { readonly _tag: 'Ended'; readonly turn: Turn } | { readonly _tag: 'TimedOut' } | { readonly _tag: 'Aborted' } | { readonly _tag: 'Closed'; readonly error: TerminalError };

/**
 * Starts a turn and follows it to its end. Never rejects. Notifications of the turn that arrive before
 * `turn/start` is answered are not missed: the listeners are in place before the request is sent.
 *
 * @example
 * ```ts
 * import { runTurn } from '@wework/app-server-client';
 *
 * const outcome = await runTurn(client, { threadId, input: [{ type: 'text', text: 'hello', text_elements: [] }] }, { timeoutMs: 60_000, signal });
 * if (outcome._tag === 'Completed') console.log(outcome.items.filter((item) => item.type === 'agentMessage'));
 * else console.log(outcome._tag); // Failed, Interrupted, StartFailed, TimedOut, Aborted or ClientClosed
 * ```
 */
export async function runTurn(client: AppServerClient, params: RunTurnParams, options: RunTurnOptions = {}): Promise<TurnOutcome> {
  const { threadId } = params;
  const { signal } = options;
  const interruptOnStop = options.interruptOnStop ?? true;
  /** Items and ends of this thread's turns; before the turn id is known, of any of its turns. */
  const itemsByTurn = new Map<string, ThreadItem[]>();
  const ended = new Map<string, Turn>();
  let turnId: string | undefined;
  let wake: (() => void) | undefined;
  const subscriptions = [
    client.on(ItemCompleted, (item) => {
      if (item.threadId !== threadId || (turnId !== undefined && item.turnId !== turnId)) return;
      const list = itemsByTurn.get(item.turnId) ?? [];
      list.push(item.item);
      itemsByTurn.set(item.turnId, list);
    }),
    client.on(TurnCompleted, (completed) => {
      if (completed.threadId !== threadId || (turnId !== undefined && completed.turn.id !== turnId)) return;
      ended.set(completed.turn.id, completed.turn);
      wake?.();
    }),
  ];
  const itemsOf = (id: string | null): ReadonlyArray<ThreadItem> => (id === null ? [] : (itemsByTurn.get(id) ?? []));
  const interrupt = async (id: string): Promise<void> => {
    await client.request(TurnInterrupt, { threadId, turnId: id });
  };

  try {
    if (signal?.aborted === true) return { _tag: 'Aborted', threadId, turnId: null, items: [] };
    const starting = client.request(TurnStart, params);
    let onAbort: (() => void) | undefined;
    const abortedFirst = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const first = await Promise.race([starting, abortedFirst]);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    if (first === 'aborted') {
      // The turn may start anyway: interrupt it once the answer says which.
      if (interruptOnStop) void starting.then((started) => (E.isRight(started) ? interrupt(started.right.turn.id) : undefined));
      return { _tag: 'Aborted', threadId, turnId: null, items: [] };
    }
    if (E.isLeft(first)) return { _tag: 'StartFailed', threadId, error: first.left };
    const id = first.right.turn.id;
    turnId = id;
    for (const other of [...itemsByTurn.keys()]) if (other !== id) itemsByTurn.delete(other);
    options.onStarted?.(first.right.turn);

    const timeoutMs = timeoutOf(options.timeoutMs);
    let cancelTimeout: (() => void) | undefined;
    let stopAbort: (() => void) | undefined;
    let stopClosed: Disposable | undefined;
    const stop = await new Promise<Stop>((resolve) => {
      const check = (): void => {
        const turn = ended.get(id);
        if (turn !== undefined) resolve({ _tag: 'Ended', turn });
      };
      wake = check;
      check();
      cancelTimeout = client.timers.after(timeoutMs, () => resolve({ _tag: 'TimedOut' }));
      stopAbort = () => resolve({ _tag: 'Aborted' });
      if (signal?.aborted === true) stopAbort();
      signal?.addEventListener('abort', stopAbort, { once: true });
      stopClosed = onClosed(client, (error) => resolve({ _tag: 'Closed', error }));
    });
    wake = undefined;
    cancelTimeout?.();
    stopClosed?.dispose();
    if (stopAbort !== undefined) signal?.removeEventListener('abort', stopAbort);
    switch (stop._tag) {
      case 'Ended':
        return endedOutcome(threadId, stop.turn, itemsOf(id));
      case 'Closed':
        return { _tag: 'ClientClosed', threadId, turnId: id, error: stop.error, turn: lostTurn(first.right.turn, stop.error), items: itemsOf(id) };
      case 'TimedOut':
        if (interruptOnStop) await interrupt(id);
        return { _tag: 'TimedOut', threadId, turnId: id, timeoutMs, items: itemsOf(id) };
      case 'Aborted':
        break;
    }
    if (interruptOnStop) await interrupt(id);
    return { _tag: 'Aborted', threadId, turnId: id, items: itemsOf(id) };
  } finally {
    for (const subscription of subscriptions) subscription.dispose();
  }
}
