/**
 * What the executor asks of its host (the Wework chat UI, or a test's scripted user): show a card built
 * from a plugin form, a Codex input request or an approval, and come back with the user's answer.
 *
 * The refused-answer rule: an answer that does not fit its card ({@link answerMisfit}: a label that names
 * no option, an unknown question, picks outside the array's limits, ...) is not mapped to a cancel the
 * user never chose; the card is shown again with an `error` naming the field and the problem, at most
 * {@link CARD_SHOWS} times in all, after which the request gets {@link answerAfterRefusals}.
 */
import { approvalAnswerMisfit } from '@wework/approval-policy';
import { answerRefusal, userInputAnswerRefusal, type HostReply } from '@wework/elicitation-mapper';
import type { CardAnswerError, HostCard } from '@wework/host-protocol';

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
