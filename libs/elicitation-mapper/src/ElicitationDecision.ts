/**
 * The two calls an executor needs to answer every elicitation request:
 *
 * 1. {@link handleElicitationRequest}: request params in → a card to show, or the response to
 *    send at once (decline, for an unsupported mode or schema, with the reason to log);
 * 2. {@link responseForCard}: the card + what the host answered (answers, cancel or decline)
 *    → the response to send; {@link checkedResponseForCard} first refuses an answer that does not
 *    fit the card, so that the executor can show the card again with the reason.
 *
 * Every function here is pure: JSON in, values out; nothing throws, whatever the input.
 */
import type { McpServerElicitationRequestParams, ToolRequestUserInputResponse } from '@wework/codex-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { answersToResult, approvalAnswerToResult } from './AnswerMapping.js';
import { answerRefusal, type AnswerRefused } from './AnswerRefusal.js';
import type { Card } from './Card.js';
import { cardForRequest, elicitationToCard, urlCardForRequest } from './ElicitationCard.js';
import { codexElicitation } from './ElicitationRequest.js';
import { urlAnswerToResult } from './UrlElicitation.js';
import { cancelResult, declineResult, type DeclineResult, type ElicitResult } from './ElicitResult.js';
import { isRecord } from '@wework/decode-issues';
import { own } from './internal/json.js';
import type { Unsupported } from './Unsupported.js';

/** Show this card and wait for the user. */
export interface ShowCard {
  readonly _tag: 'ShowCard';
  readonly card: Card;
}

/** Answer the request now with `response` (decline); log `reason.message`. */
export interface RespondNow {
  readonly _tag: 'Respond';
  readonly response: DeclineResult;
  readonly reason: Unsupported;
}

/** What to do with an elicitation request. */
export type ElicitationDecision = ShowCard | RespondNow;

/** What a host may answer a card with: the protocol's answers, or an explicit cancel / decline. */
export type HostReply = ToolRequestUserInputResponse | { readonly action: 'cancel' | 'decline' };

/**
 * Decides what to do with the params of an `mcpServer/elicitation/request` (or of a plain MCP
 * `elicitation/create`): show a card, or respond at once with decline.
 * @example
 * ```ts
 * const decision = handleElicitationRequest(request.params);
 * if (decision._tag === 'Respond') {
 *   log(decision.reason.message);
 *   reply(request.id, decision.response); // { action: 'decline', content: null, _meta: null }
 * } else {
 *   show(decision.card);
 * }
 * ```
 */
export function handleElicitationRequest(params: unknown): ElicitationDecision {
  const card = elicitationToCard(params);
  return E.isRight(card) ? { _tag: 'ShowCard', card: card.right } : { _tag: 'Respond', response: declineResult(), reason: card.left };
}

/**
 * {@link handleElicitationRequest} for the params of a Codex `mcpServer/elicitation/request` that Codex's
 * codec already decoded (the envelope is not decoded again).
 * @example
 * ```ts
 * client.onServerRequest(McpServerElicitationRequest, (params) => {
 *   const decision = handleCodexElicitationRequest(params);
 *   // ...
 * });
 * ```
 */
export function handleCodexElicitationRequest(params: McpServerElicitationRequestParams): ElicitationDecision {
  const request = codexElicitation(params);
  const card: E.Either<Unsupported, Card> = E.isLeft(request) ? request : request.right.mode === 'url' ? urlCardForRequest(request.right) : cardForRequest(request.right);
  return E.isRight(card) ? { _tag: 'ShowCard', card: card.right } : { _tag: 'Respond', response: declineResult(), reason: card.left };
}

/**
 * The response for a card the host answered. `{ action: "cancel" }` and `{ action: "decline" }`
 * pass through; answers are mapped (labels → values, see `answersToResult`,
 * `approvalAnswerToResult` and `urlAnswerToResult`); anything else is no usable answer → cancel.
 * @example
 * ```ts
 * responseForCard(card, { answers: { target: { answers: ['Production'] } } });
 * // { action: 'accept', content: { target: 'production' }, _meta: null }
 * responseForCard(card, { action: 'cancel' }); // { action: 'cancel', content: null, _meta: null }
 * ```
 */
export function responseForCard(card: Card, reply: HostReply): ElicitResult {
  if (!isRecord(reply) || !isRecord(card)) return cancelResult();
  const action = own(reply, 'action');
  if (action === 'cancel') return cancelResult();
  if (action === 'decline') return declineResult();
  switch (card._tag) {
    case 'FormCard':
      return answersToResult(card, reply);
    case 'ToolApprovalCard':
      return approvalAnswerToResult(card, reply);
    case 'UrlCard':
      return urlAnswerToResult(card, reply);
    default:
      return cancelResult();
  }
}

/**
 * The response for a card the host answered, or the reason the answer does not fit the card
 * ({@link answerRefusal}): a label that names no option, an unknown question, picks outside the
 * array's limits, ... An executor shows the card again with the refusal's message (a bounded number
 * of times) instead of sending the plugin a cancel it never chose. Never throws.
 * @example
 * ```ts
 * checkedResponseForCard(card, { answers: { target: { answers: ['Mars'] } } });
 * // Left({ _tag: 'AnswerRefused', questionId: 'target', problem: 'UnknownOption', message: 'target: the answer names none of the options' })
 * checkedResponseForCard(card, { answers: { target: { answers: ['Production'] } } });
 * // Right({ action: 'accept', content: { target: 'production' }, _meta: null })
 * ```
 */
export function checkedResponseForCard(card: Card, reply: unknown): E.Either<AnswerRefused, ElicitResult> {
  const refusal = isRecord(card) ? answerRefusal(card, reply) : null;
  return refusal === null ? E.right(responseForCard(card, reply as HostReply)) : E.left(refusal);
}
