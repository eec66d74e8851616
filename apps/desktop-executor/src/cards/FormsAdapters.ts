/**
 * The card adapters of plugin forms: `mcpServer/elicitation/request` through the elicitation mapper, on
 * the params Codex's codec decoded (unsupported → decline at once, with the reason), and Codex's own
 * `item/tool/requestUserInput`. A URL-mode request whose link passes the mapper's check is a `url` card
 * carrying the checked link; the executor never opens it (the host does, on the user's click). Each answer is the library's checked answer: one that does not fit the
 * card is refused with the field and the problem.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ItemToolRequestUserInput, McpServerElicitationRequest } from '@wework/codex-protocol';
import {
  cancelResult,
  checkedResponseForCard,
  handleCodexElicitationRequest,
  hostCardKindOf,
  hostQuestionsOf,
  hostUrlOf,
  userInputAnswerRefusal,
  type ElicitResult,
} from '@wework/elicitation-mapper';
import { plainHostQuestion } from '@wework/host-protocol';
import type { CardAdapter } from './CardRouter.js';

/** Plugin forms and Codex's MCP tool approvals, as elicitations. */
export const elicitationAdapter: CardAdapter<typeof McpServerElicitationRequest> = {
  descriptor: McpServerElicitationRequest,
  origin: 'mcpElicitation',
  event: 'codex mcp elicitation request',
  describe: (params) => ({ serverName: params.serverName, mode: params.mode, threadId: params.threadId, turnId: params.turnId }),
  describeResponse: (response) => ({ action: response.action }),
  decide: (params) => {
    const decision = handleCodexElicitationRequest(params);
    if (decision._tag === 'Respond') return { _tag: 'Respond', response: decision.response, reason: decision.reason.message };
    const card = decision.card;
    const url = hostUrlOf(card);
    return {
      _tag: 'Show',
      card: {
        kind: hostCardKindOf(card),
        threadId: params.threadId,
        turnId: params.turnId,
        serverName: params.serverName,
        message: card.message,
        questions: hostQuestionsOf(card),
        submitOnSelect: card.submitOnSelect,
        ...(url === null ? {} : { url }),
      },
      answer: (reply) => E.map((response: ElicitResult) => ({ response }))(checkedResponseForCard(card, reply)),
      cancelled: () => ({ response: cancelResult() }),
      refusedTooOften: () => ({ response: cancelResult() }),
    };
  },
};

/** Codex's own request_user_input (the model's tool, or the tool-approval fallback). request_user_input has no cancel: "no usable answer" is an empty answer set. */
export const userInputAdapter: CardAdapter<typeof ItemToolRequestUserInput> = {
  descriptor: ItemToolRequestUserInput,
  origin: 'requestUserInput',
  event: 'codex request user input',
  describe: (params) => ({ threadId: params.threadId, turnId: params.turnId, questions: params.questions.map((q) => q.id) }),
  describeResponse: (response) => ({ answered: Object.keys(response.answers) }),
  decide: (params) => ({
    _tag: 'Show',
    card: {
      kind: 'input',
      threadId: params.threadId,
      turnId: params.turnId,
      serverName: null,
      message: null,
      questions: params.questions.map((q) => plainHostQuestion(q, (q.options?.length ?? 0) > 0 && !q.isOther ? 'singleChoice' : 'text')),
      submitOnSelect: params.questions.length === 1 && (params.questions[0]?.options?.length ?? 0) > 0,
    },
    answer: (reply) => {
      const refusal = userInputAnswerRefusal(params.questions, reply);
      return refusal === null ? E.right({ response: { answers: 'action' in reply ? {} : reply.answers } }) : E.left(refusal);
    },
    cancelled: () => ({ response: { answers: {} } }),
    refusedTooOften: () => ({ response: { answers: {} } }),
  }),
};
