/**
 * The gate of one JSON-RPC connection served to an untrusted peer, as a state machine: which decoded
 * inbound messages reach the dispatcher. Requests are admitted up to a bound of requests in flight
 * (received and not yet answered); beyond it, or when the caller's shared budget is spent, a request is
 * refused as overloaded; a request whose id is already in flight is refused as a duplicate (ids are
 * compared as text, as vscode-jsonrpc's queue does: `1` and `"1"` are the same id). Responses reach the
 * dispatcher only for a request this end sent and that is still unanswered (compared exactly);
 * `$/cancelRequest` only once, for a request in flight. Every refused request is answered by the caller
 * at once; what else is refused is dropped.
 *
 * Requests that wait for long (a turn that runs for minutes, a card the user has not answered) can be
 * given a bound of their own ({@link LongRunningBound}) and a shared budget of their own
 * ({@link BudgetRoom}): they neither count against the bound of short requests nor spend the short
 * requests' budget, so a host whose turns wait can still stop them or ask anything.
 *
 * A message refused before the gate (malformed, yet with a readable request id) is answered with that
 * id only when no request with it is in flight ({@link refusalReplyId}); else with id `null`, so the
 * request in flight keeps the only answer its id gets.
 *
 * Every function here is pure: a state and a message in, a decision and the next state out.
 */
import type { JsonRpcId, JsonRpcMessage } from './JsonRpcMessage.js';
import { isJsonRpcNotification, isJsonRpcRequest, isJsonRpcResponse } from './JsonRpcMessage.js';

/** One request from the peer in flight. */
export interface InFlightRequest {
  /** A `$/cancelRequest` for it was delivered. */
  readonly cancelled: boolean;
  /** It is bounded as a long-running request, not as a short one. */
  readonly longRunning: boolean;
}

/** What the gate remembers of one connection. */
export interface GateState {
  /** Requests from the peer that were delivered and not yet answered, by id as text. */
  readonly inFlight: ReadonlyMap<string, InFlightRequest>;
  /** Requests this end sent to the peer and that are not answered yet, by exact id. */
  readonly awaiting: ReadonlySet<string>;
}

/** The gate of a new connection. */
export const initialGateState: GateState = { inFlight: new Map(), awaiting: new Set() };

/** What to do with one inbound message. */
export type GateDecision =
  | { readonly _tag: 'Deliver' }
  /** A request over the bound: answer it at once as overloaded (retryable). */
  | { readonly _tag: 'Overloaded'; readonly id: JsonRpcId }
  /** A request whose id is in flight: answer it at once with an error; the request in flight is untouched. */
  | { readonly _tag: 'Duplicate'; readonly id: JsonRpcId }
  /** A response or notification that is dropped unanswered. */
  | { readonly _tag: 'Drop'; readonly reason: 'UnknownResponse' | 'CancelOfNothingInFlight' };

/** The decision and the state after it. */
export interface GateStep {
  readonly decision: GateDecision;
  readonly state: GateState;
}

const inboundKey = (id: JsonRpcId): string => String(id);
const awaitingKey = (id: JsonRpcId): string => `${typeof id}:${String(id)}`;

const withInFlight = (state: GateState, key: string, request: InFlightRequest): GateState => ({ ...state, inFlight: new Map(state.inFlight).set(key, request) });

/** Which requests are long-running, and how many of them one connection may have in flight. */
export interface LongRunningBound {
  readonly isLongRunning: (method: string) => boolean;
  readonly max: number;
}

/** Whether the shared budgets have room for one more request of each class. */
export interface BudgetRoom {
  readonly short: boolean;
  readonly longRunning: boolean;
}

/** How many of the connection's requests in flight are long-running ones (see {@link LongRunningBound}). */
export function longRunningRequestsInFlight(state: GateState): number {
  return state.inFlight.size - shortRequestsInFlight(state);
}

/**
 * The id to answer a refused request with, when the refusal happened before the gate (a message that
 * is no valid request yet carries a usable id): that id, unless a request with it is in flight on the
 * connection (ids compared as text); then `null`, since that request gets its own answer.
 * @example
 * ```ts
 * import { admitInbound, initialGateState, refusalReplyId } from '@wework/jsonrpc';
 * const step = admitInbound(initialGateState, { id: 1, method: 'executor/info' }, 8, true);
 * refusalReplyId(step.state, 1); // null
 * refusalReplyId(step.state, 2); // 2
 * ```
 */
export function refusalReplyId(state: GateState, id: JsonRpcId | null): JsonRpcId | null {
  return id !== null && state.inFlight.has(inboundKey(id)) ? null : id;
}

/**
 * How many of the connection's requests in flight are short ones: those bounded by `maxInFlight` and
 * counted in a shared budget.
 */
export function shortRequestsInFlight(state: GateState): number {
  let count = 0;
  for (const request of state.inFlight.values()) if (!request.longRunning) count += 1;
  return count;
}

/**
 * Decides on one decoded inbound message.
 * @param maxInFlight the bound on this connection's (short) requests in flight
 * @param budgetLeft whether the budgets shared with other connections have room for one more request:
 *   a boolean for short requests only (long-running ones then have no shared budget), or one per class
 * @param longRunning which requests are bounded apart (default none: every request is short)
 * @example
 * ```ts
 * import { admitInbound, initialGateState } from '@wework/jsonrpc';
 * const first = admitInbound(initialGateState, { id: 1, method: 'executor/info' }, 8, true); // Deliver
 * admitInbound(first.state, { id: 1, method: 'executor/info' }, 8, true).decision; // { _tag: 'Duplicate', id: 1 }
 * ```
 */
export function admitInbound(state: GateState, message: JsonRpcMessage, maxInFlight: number, budgetLeft: boolean | BudgetRoom, longRunning?: LongRunningBound): GateStep {
  if (isJsonRpcRequest(message)) {
    const key = inboundKey(message.id);
    if (state.inFlight.has(key)) return { decision: { _tag: 'Duplicate', id: message.id }, state };
    const room: BudgetRoom = typeof budgetLeft === 'boolean' ? { short: budgetLeft, longRunning: true } : budgetLeft;
    const isLong = longRunning?.isLongRunning(message.method) === true;
    const short = shortRequestsInFlight(state);
    const full = isLong ? state.inFlight.size - short >= (longRunning?.max ?? 0) || !room.longRunning : short >= maxInFlight || !room.short;
    if (full) return { decision: { _tag: 'Overloaded', id: message.id }, state };
    return { decision: { _tag: 'Deliver' }, state: withInFlight(state, key, { cancelled: false, longRunning: isLong }) };
  }
  if (isJsonRpcResponse(message)) {
    const key = message.id === null ? null : awaitingKey(message.id);
    if (key === null || !state.awaiting.has(key)) return { decision: { _tag: 'Drop', reason: 'UnknownResponse' }, state };
    const awaiting = new Set(state.awaiting);
    awaiting.delete(key);
    return { decision: { _tag: 'Deliver' }, state: { ...state, awaiting } };
  }
  if (isJsonRpcNotification(message) && message.method === '$/cancelRequest') {
    const id = cancelledId(message.params);
    const key = id === null ? null : inboundKey(id);
    const request = key === null ? undefined : state.inFlight.get(key);
    if (key === null || request === undefined || request.cancelled) return { decision: { _tag: 'Drop', reason: 'CancelOfNothingInFlight' }, state };
    return { decision: { _tag: 'Deliver' }, state: withInFlight(state, key, { ...request, cancelled: true }) };
  }
  return { decision: { _tag: 'Deliver' }, state };
}

/**
 * Records one message this end's dispatcher wrote: an answer settles the request in flight with its id;
 * a request is awaited until the peer answers it. (Answers to refused requests are written past the
 * gate and are not recorded: they must not settle the request in flight with the same id.)
 * @example
 * ```ts
 * import { admitInbound, initialGateState, recordOutbound } from '@wework/jsonrpc';
 * const step = admitInbound(initialGateState, { id: 1, method: 'executor/info' }, 8, true);
 * recordOutbound(step.state, { id: 1, result: {} }).inFlight.size; // 0
 * ```
 */
export function recordOutbound(state: GateState, message: JsonRpcMessage): GateState {
  if (isJsonRpcRequest(message)) return { ...state, awaiting: new Set(state.awaiting).add(awaitingKey(message.id)) };
  if (isJsonRpcResponse(message) && message.id !== null && state.inFlight.has(inboundKey(message.id))) {
    const inFlight = new Map(state.inFlight);
    inFlight.delete(inboundKey(message.id));
    return { ...state, inFlight };
  }
  return state;
}

function cancelledId(params: unknown): JsonRpcId | null {
  if (typeof params !== 'object' || params === null || !('id' in params)) return null;
  const id: unknown = params.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
