/**
 * The two calls an executor needs to answer Codex's execution approvals:
 *
 * 1. {@link handleApprovalRequest}: method + params in → a card to show, or the response to send
 *    at once (the safe refusal, with the reason to log), or "not an approval request";
 * 2. `responseForApprovalCard`: the card + what the host answered → the response to send.
 *
 * Every function here is pure: JSON in, values out. Nothing throws, whatever the input.
 */
import * as E from 'fp-ts/lib/Either.js';
import { approvalCard, type ApprovalCardError, type ApprovalMethod, type ApprovalRequestCard } from './ApprovalCards.js';
import { refusalFor, type ApprovalResponses } from './ApprovalAnswers.js';

/** Show this card and wait for the user. */
export interface ShowApprovalCard {
  readonly _tag: 'ShowCard';
  readonly card: ApprovalRequestCard;
}

/** Answer the request now with `response` (the safe refusal of `method`); log `reason.message`. */
export type RespondToApproval = {
  readonly [M in ApprovalMethod]: {
    readonly _tag: 'Respond';
    readonly method: M;
    readonly response: ApprovalResponses[M];
    readonly reason: ApprovalCardError;
  };
}[ApprovalMethod];

/** The method is not one of the three approval requests: this module has nothing to say. */
export interface NotAnApprovalRequest {
  readonly _tag: 'NotAnApprovalRequest';
  readonly method: string;
}

/** What to do with a server request. */
export type ApprovalRequestDecision = ShowApprovalCard | RespondToApproval | NotAnApprovalRequest;

/**
 * Decides what to do with a server request: show an approval card, or respond at once with the
 * safe refusal (`{ decision: 'decline' }`, or the empty grant `{ permissions: {}, scope: 'turn' }`
 * for permission requests) when the params cannot be read, carry what this version does not know,
 * or advertise nothing Wework can offer.
 * Called with one of the {@link ApprovalMethod}s, the result is never `NotAnApprovalRequest`.
 *
 * @example
 * ```ts
 * const decision = handleApprovalRequest(request.method, request.params);
 * switch (decision._tag) {
 *   case 'ShowCard': show(decision.card); break; // later: reply(request.id, responseForApprovalCard(decision.card, hostReply).response)
 *   case 'Respond': log(decision.reason.message); reply(request.id, decision.response); break;
 *   case 'NotAnApprovalRequest': break; // another handler's request
 * }
 * ```
 */
export function handleApprovalRequest(method: ApprovalMethod, params: unknown): ShowApprovalCard | RespondToApproval;
export function handleApprovalRequest(method: string, params: unknown): ApprovalRequestDecision;
export function handleApprovalRequest(method: string, params: unknown): ApprovalRequestDecision {
  const card = approvalCard(method, params);
  if (E.isRight(card)) return { _tag: 'ShowCard', card: card.right };
  const reason = card.left;
  switch (reason._tag) {
    case 'UnknownApprovalMethod':
      return { _tag: 'NotAnApprovalRequest', method: reason.method };
    case 'InvalidParams':
      return respond(reason.approvalMethod, reason);
    case 'NoUsableDecisions':
    case 'UnknownApprovalRequest':
      return respond(reason.method, reason);
  }
}

const respond = (method: ApprovalMethod, reason: ApprovalCardError): RespondToApproval =>
  ({ _tag: 'Respond', method, response: refusalFor(method), reason }) as RespondToApproval;
