/**
 * What the executor asks of its host (the Wework chat UI, or a test's scripted user): show a card built
 * from a plugin form, a Codex input request or an approval, and come back with the user's answer.
 *
 * The refused-answer rule: an answer that does not fit its card ({@link answerMisfit}: a label that names
 * no option, an unknown question, picks outside the array's limits, ...) is not mapped to a cancel the
 * user never chose; the card is shown again with an `error` naming the field and the problem, at most
 * {@link CARD_SHOWS} times in all, after which the request gets {@link answerAfterRefusals}.
 */
import type { ToolRequestUserInputQuestion } from '@wework/codex-protocol';
import { approvalAnswerMisfit, type ApprovalRequestCard } from '@wework/approval-policy';
import { answerRefusal, userInputAnswerRefusal, type Card, type HostReply } from '@wework/elicitation-mapper';

/** Where a card came from. */
export type CardOrigin =
  /** A plugin's form or Codex's "allow this tool" question, as `mcpServer/elicitation/request`. */
  | 'mcpElicitation'
  /** Codex's own `item/tool/requestUserInput` (the model's request_user_input tool, or an approval fallback). */
  | 'requestUserInput'
  /** `item/commandExecution/requestApproval`: may this command run? */
  | 'commandApproval'
  /** `item/fileChange/requestApproval`: may this patch be applied? */
  | 'fileChangeApproval'
  /** `item/permissions/requestApproval`: may the task get these permissions? */
  | 'permissionsApproval';

/** A card for the host to render as a request_user_input block. */
export interface HostCard {
  /** Stable for the lifetime of the request; the host may use it to dismiss the card later. */
  readonly cardId: string;
  readonly origin: CardOrigin;
  readonly threadId: string;
  readonly turnId: string | null;
  /** The MCP server that asked, for elicitations. */
  readonly serverName: string | null;
  /** The elicitation's message (the card's title line), when there is one. */
  readonly message: string | null;
  /** The questions, in the protocol's request_user_input shape and in the order to show them. */
  readonly questions: ReadonlyArray<ToolRequestUserInputQuestion>;
  /** Selecting an option submits at once (a single question with options). */
  readonly submitOnSelect: boolean;
  /** The mapper's card behind an elicitation (option values, answer types), for hosts that want it. */
  readonly card: Card | null;
  /** The approval card behind a command, file-change or permissions approval (decisions in order). */
  readonly approval: ApprovalRequestCard | null;
  /** Set when the card is shown again because the host's last answer did not fit it; `null` on the first show. */
  readonly error?: CardAnswerError | null;
}

/** Why the host's last answer to a card was refused (the card is shown again with it). */
export interface CardAnswerError {
  /** The question the problem is in, or `null` for the answer as a whole. */
  readonly questionId: string | null;
  /** The problem's tag, e.g. `UnknownOption`, `TooManyPicks`, `UnknownLabel`, `NotAnAnswer`. */
  readonly problem: string;
  /** The field and the problem (never the host's own text), e.g. `regions: 4 picks, at most 3 allowed`. */
  readonly message: string;
  /** How many more refused answers cancel the card: after the last show, a misfit is answered {@link answerAfterRefusals}. */
  readonly attemptsLeft: number;
}

/** How often one card is shown at most: the first time, and again after each refused answer. */
export const CARD_SHOWS = 3;

/**
 * Why `reply` (the host's raw `card/show` result) does not fit `card`, or `null` when it does. Plugin
 * forms and tool approvals are checked by the elicitation mapper, execution approvals by the approval
 * policy, Codex's own input requests against their questions (ids, and options where no "other" text is allowed).
 */
export function answerMisfit(card: HostCard, reply: unknown): Omit<CardAnswerError, 'attemptsLeft'> | null {
  if (card.card !== null) {
    const refusal = answerRefusal(card.card, reply);
    return refusal === null ? null : { questionId: refusal.questionId, problem: refusal.problem, message: refusal.message };
  }
  if (card.approval !== null) {
    const note = approvalAnswerMisfit(card.approval, reply);
    return note === null ? null : { questionId: card.questions[0]?.id ?? null, problem: note._tag, message: `${card.questions[0]?.id ?? 'answer'}: ${note.message}` };
  }
  const refusal = userInputAnswerRefusal(card.questions, reply);
  return refusal === null ? null : { questionId: refusal.questionId, problem: refusal.problem, message: refusal.message };
}

/**
 * What the request gets once the host's answers were refused {@link CARD_SHOWS} times: cancel for plugin
 * forms, tool approvals and input requests (as when no usable answer is available), decline for execution
 * approvals (the safe refusal: the command does not run, the task goes on).
 */
export const answerAfterRefusals = (card: HostCard): HostReply => (card.approval !== null ? { action: 'decline' } : { action: 'cancel' });

/**
 * The host side of the executor. `showCard` resolves with the user's answer (`{ answers }` keyed by
 * question id, option labels as shown) or `{ action: "cancel" | "decline" }`. When `signal` aborts (the
 * task was stopped, or Codex settled the request elsewhere) the host should dismiss the card; the
 * executor has already answered the request with cancel.
 */
export interface ExecutorHost {
  showCard(card: HostCard, signal: AbortSignal): Promise<HostReply>;
}
