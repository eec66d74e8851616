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
import { approvalQuestions, handleApprovalRequest, responseForApprovalCard, type ApprovalMethod } from '@wework/approval-policy';
import type { CardAdapter, CardDecision } from './CardRouter.js';
import type { CardOrigin } from '@wework/host-protocol';

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
      return {
        _tag: 'Show',
        card: {
          threadId: params.threadId,
          turnId: params.turnId,
          serverName: null,
          message: null,
          questions: approvalQuestions(card),
          submitOnSelect: true,
          card: null,
          approval: card,
        },
        respond: (reply, aborted) => {
          const answer = responseForApprovalCard(card, aborted ? { action: 'cancel' } : reply);
          return { response: answer.response as ResultOf<D>, ...(answer.note === undefined ? {} : { note: answer.note.message }) };
        },
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
