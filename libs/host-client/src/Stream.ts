/**
 * The host's side of the replayable event stream as steps on a small state: the cursor (the last `seq`
 * taken), whether the stream has a starting point yet, and whether an `events/subscribe` that will
 * replay what is missing is on its way. The client carries out what a step says (deliver, drop, send
 * `events/subscribe { after: cursor }`).
 *
 * Every function here is pure: a state and an input in, the next state and what to do out.
 */
import { acceptEvent } from '@wework/host-protocol';

/** Where the host is in the stream. */
export interface StreamState {
  /** The last `seq` taken (0: none). */
  readonly cursor: number;
  /**
   * Whether the stream has a starting point. A new host (cursor 0, no subscribe answered yet) takes the
   * stream from its first event, whatever its `seq`; otherwise every event would look like a gap.
   */
  readonly anchored: boolean;
  /** An `events/subscribe` is on its way: what a gap misses arrives with its replay, so a gap sends no other. */
  readonly resubscribing: boolean;
}

/** What to do with an arriving event. */
export type StreamStep =
  /** Deliver it: it is the next one (the cursor moved to it). */
  | { readonly _tag: 'Take' }
  /** Drop it: it was taken before. */
  | { readonly _tag: 'Duplicate' }
  /** Drop it: some before it are missing; `resubscribe` says whether to send `events/subscribe { after: cursor }` now. */
  | { readonly _tag: 'Gap'; readonly resubscribe: boolean };

/**
 * The state of a new host: `cursor` 0 (none, anchored at the first event) or the cursor a window kept.
 * @example
 * ```ts
 * initialStream(); // { cursor: 0, anchored: false, resubscribing: false }
 * initialStream(41); // { cursor: 41, anchored: true, resubscribing: false }
 * ```
 */
export const initialStream = (cursor = 0): StreamState => ({ cursor, anchored: cursor > 0, resubscribing: false });

/**
 * The step for an event with `seq`.
 * @example
 * ```ts
 * takeEvent({ cursor: 2, anchored: true, resubscribing: false }, 5); // [{ ...resubscribing: true }, { _tag: 'Gap', resubscribe: true }]
 * ```
 */
export function takeEvent(state: StreamState, seq: number): readonly [StreamState, StreamStep] {
  if (!state.anchored && state.cursor === 0) return [{ ...state, cursor: seq, anchored: true }, { _tag: 'Take' }];
  switch (acceptEvent(state.cursor, seq)) {
    case 'next':
      return [{ ...state, cursor: seq, anchored: true }, { _tag: 'Take' }];
    case 'duplicate':
      return [state, { _tag: 'Duplicate' }];
    case 'gap':
      return state.resubscribing ? [state, { _tag: 'Gap', resubscribe: false }] : [{ ...state, resubscribing: true }, { _tag: 'Gap', resubscribe: true }];
  }
}

/** An `events/subscribe` is sent (the resume after a connect, or after a gap). */
export const subscribing = (state: StreamState): StreamState => ({ ...state, resubscribing: true });

/**
 * The answer of an `events/subscribe`: after a `reset` the stream goes on from its `seq`; a new host
 * (it subscribed without a cursor) starts at its `seq` unless it already took a later event.
 * @example
 * ```ts
 * subscribed({ cursor: 0, anchored: false, resubscribing: true }, { reset: false, seq: 41 }, true); // { cursor: 41, anchored: true, resubscribing: false }
 * ```
 */
export function subscribed(state: StreamState, answer: { readonly reset: boolean; readonly seq: number }, fresh: boolean): StreamState {
  if (answer.reset) return { cursor: answer.seq, anchored: true, resubscribing: false };
  if (fresh) return { cursor: Math.max(state.cursor, answer.seq), anchored: true, resubscribing: false };
  return { ...state, anchored: true, resubscribing: false };
}

/** The `events/subscribe` got no answer (the connection dropped, the client was busy): the next gap sends another. */
export const subscribeFailed = (state: StreamState): StreamState => ({ ...state, resubscribing: false });
