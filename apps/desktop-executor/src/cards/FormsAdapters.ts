/**
 * The card adapters of plugin forms: `mcpServer/elicitation/request` through the elicitation mapper
 * (unsupported → decline at once, with the reason), and Codex's own `item/tool/requestUserInput`.
 */
import { ItemToolRequestUserInput, McpServerElicitationRequest } from '@wework/codex-protocol';
import { cancelResult, handleElicitationRequest, responseForCard, userInputQuestions } from '@wework/elicitation-mapper';
import type { CardAdapter } from './CardRouter.js';

/** Plugin forms and Codex's MCP tool approvals, as elicitations. */
export const elicitationAdapter: CardAdapter<typeof McpServerElicitationRequest> = {
  descriptor: McpServerElicitationRequest,
  origin: 'mcpElicitation',
  event: 'codex mcp elicitation request',
  describe: (params) => ({ serverName: params.serverName, mode: params.mode, threadId: params.threadId, turnId: params.turnId }),
  describeResponse: (response) => ({ action: response.action }),
  decide: (params) => {
    const decision = handleElicitationRequest(params);
    if (decision._tag === 'Respond') return { _tag: 'Respond', response: decision.response, reason: decision.reason.message };
    const card = decision.card;
    return {
      _tag: 'Show',
      card: {
        threadId: params.threadId,
        turnId: params.turnId,
        serverName: params.serverName,
        message: card.message,
        questions: userInputQuestions(card),
        submitOnSelect: card.submitOnSelect,
        card,
        approval: null,
      },
      respond: (reply, aborted) => ({ response: aborted ? cancelResult() : responseForCard(card, reply) }),
    };
  },
};

/** Codex's own request_user_input (the model's tool, or the tool-approval fallback). */
export const userInputAdapter: CardAdapter<typeof ItemToolRequestUserInput> = {
  descriptor: ItemToolRequestUserInput,
  origin: 'requestUserInput',
  event: 'codex request user input',
  describe: (params) => ({ threadId: params.threadId, turnId: params.turnId, questions: params.questions.map((q) => q.id) }),
  describeResponse: (response) => ({ answered: Object.keys(response.answers) }),
  decide: (params) => ({
    _tag: 'Show',
    card: {
      threadId: params.threadId,
      turnId: params.turnId,
      serverName: null,
      message: null,
      questions: params.questions,
      submitOnSelect: params.questions.length === 1 && (params.questions[0]?.options?.length ?? 0) > 0,
      card: null,
      approval: null,
    },
    // request_user_input has no cancel: "no usable answer" is an empty answer set.
    respond: (reply, aborted) => ({ response: { answers: aborted || 'action' in reply ? {} : reply.answers } }),
  }),
};
