/**
 * The card adapters of execution approvals: commands, file changes and permission requests, mapped by
 * `@wework/approval-policy` (only the decisions the request advertises, in its order; anything the card
 * did not offer is declined).
 */
import {
  ItemCommandExecutionRequestApproval,
  ItemFileChangeRequestApproval,
  ItemPermissionsRequestApproval,
  type AnyServerRequest,
  type ParamsOf,
  type ResultOf,
} from '@wework/codex-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { approvalAnswerMisfit, approvalQuestions, handleApprovalRequest, responseForApprovalCard, type ApprovalMethod } from '@wework/approval-policy';
import type { Answered, CardAdapter, CardDecision } from './CardRouter.js';
import { plainHostQuestion, type CardOrigin, type HostReply } from '@wework/host-protocol';

type ApprovalDescriptor = typeof ItemCommandExecutionRequestApproval | typeof ItemFileChangeRequestApproval | typeof ItemPermissionsRequestApproval;

function approvalAdapter<D extends ApprovalDescriptor>(descriptor: D, origin: CardOrigin, event: string): CardAdapter<D> {
  const method: ApprovalMethod = descriptor.method;
  return {
    descriptor,
    origin,
    event,
    describe: (params) => ({ threadId: params.threadId, turnId: params.turnId, itemId: params.itemId }),
    describeResponse: (response) => ({ response }),
    decide: (params: ParamsOf<D>): CardDecision<ResultOf<D>> => {
      const decision = handleApprovalRequest(method, params);
      // The response of each branch has the protocol response type of `method`, which is D's result.
      if (decision._tag === 'Respond') return { _tag: 'Respond', response: decision.response as ResultOf<D>, reason: decision.reason.message };
      const card = decision.card;
      const respond = (reply: HostReply): Answered<ResultOf<D>> => {
        const answer = responseForApprovalCard(card, reply);
        return { response: answer.response as ResultOf<D>, ...(answer.note === undefined ? {} : { note: answer.note.message }) };
      };
      return {
        _tag: 'Show',
        card: {
          kind: 'approval',
          threadId: params.threadId,
          turnId: params.turnId,
          serverName: null,
          message: null,
          questions: approvalQuestions(card).map((q) => plainHostQuestion(q, 'approval', card.decisions)),
          submitOnSelect: true,
        },
        // The checked answer: a reply naming no offered decision is refused (the card is shown again).
        answer: (reply) => {
          const misfit = approvalAnswerMisfit(card, reply);
          const questionId = card.questions[0].id;
          return misfit === null ? E.right(respond(reply)) : E.left({ questionId, problem: misfit._tag, message: `${questionId}: ${misfit.message}` });
        },
        cancelled: () => respond({ action: 'cancel' }),
        // The safe refusal: the command does not run, the task goes on.
        refusedTooOften: () => respond({ action: 'decline' }),
      };
    },
  };
}

/** Commands, file changes and permission requests. */
export const approvalAdapters: ReadonlyArray<CardAdapter<AnyServerRequest>> = [
  approvalAdapter(ItemCommandExecutionRequestApproval, 'commandApproval', 'codex command approval request'),
  approvalAdapter(ItemFileChangeRequestApproval, 'fileChangeApproval', 'codex file change approval request'),
  approvalAdapter(ItemPermissionsRequestApproval, 'permissionsApproval', 'codex permissions approval request'),
] as ReadonlyArray<CardAdapter<AnyServerRequest>>;
