/**
 * The strict reading of a host's answer, applied before mapping: an answer that does not fit its
 * card — a label that names no option, an unknown question id, picks outside the array's
 * `minItems`/`maxItems`, several answers to a one-answer question, an
 * approval choice the card did not offer — is refused with an {@link AnswerRefused} naming the field
 * and the problem, never the host's text, so that the host can be asked again instead of the plugin
 * silently getting less than the user meant. What fits is mapped by `AnswerMapping.ts` as given.
 *
 * Every function here is pure: JSON in, a refusal or `null` out; nothing throws, whatever the input.
 */
import type { ToolRequestUserInputQuestion } from '@wework/codex-protocol';
import type { AnswerType } from './Card.js';
import { answerStrings, optionIndex } from './internal/answerReading.js';
import { isRecord } from '@wework/decode-issues';
import { own } from './internal/json.js';

/** What is wrong with an answer that does not fit its card. */
export type AnswerProblem =
  /** The reply is neither `{ answers }` nor `{ action: "cancel" | "decline" }`, or an entry is not `{ answers: string[] }`. */
  | 'NotAnAnswer'
  /** An answer to a question id the card does not have. */
  | 'UnknownQuestion'
  /** A label that names none of the question's options. */
  | 'UnknownOption'
  /** Several answers to a question that takes one. */
  | 'TooManyAnswers'
  /** Fewer picks than the array's `minItems`. */
  | 'TooFewPicks'
  /** More picks than the array's `maxItems`. */
  | 'TooManyPicks'
  /** No answer to a question that needs one (the approval question, the open-link question). */
  | 'MissingAnswer';

/** A host's answer that does not fit its card: the field and the problem, in a message that never quotes the host's text. */
export interface AnswerRefused {
  readonly _tag: 'AnswerRefused';
  /** The card's question the problem is in; `null` for the answer as a whole or a question the card does not have. */
  readonly questionId: string | null;
  readonly problem: AnswerProblem;
  /** E.g. `regions: 4 picks, at most 3 allowed`. */
  readonly message: string;
}

/**
 * What the strict reading needs of a question: its id, its answer type, its options (by label) and, for a
 * multi-choice, its limits. The mapper's questions have it, and so do the host protocol's (`HostQuestion`),
 * so a host checks an answer before sending it with the very rule the executor applies.
 */
export interface AnswerableQuestion {
  readonly id: string;
  readonly answerType: AnswerType;
  readonly options: ReadonlyArray<{ readonly label: string }> | null;
  readonly minItems?: number | null;
  readonly maxItems?: number | null;
}

/** A card as the strict reading sees it: its questions. */
export interface AnswerableCard {
  readonly questions: ReadonlyArray<AnswerableQuestion>;
}

/** A card's question id as a message names it (ids come from the plugin's schema; a long one is described). */
const fieldName = (id: string): string => (id.length <= 40 ? id : `a field (${id.length} characters)`);

const refused = (questionId: string | null, problem: AnswerProblem, detail: string): AnswerRefused => ({
  _tag: 'AnswerRefused',
  questionId,
  problem,
  message: `${questionId === null ? 'answer' : fieldName(questionId)}: ${detail}`,
});

/** `{ action: "cancel" | "decline" }`: always fits a card. */
const isHostAction = (reply: unknown): boolean => {
  const action = isRecord(reply) ? own(reply, 'action') : undefined;
  return action === 'cancel' || action === 'decline';
};

/** The answer entries of a reply, or a refusal when the reply is not `{ answers: { id: { answers: string[] } } }`. */
const replyEntries = (response: unknown): Array<[string, ReadonlyArray<string>]> | AnswerRefused => {
  const answers = isRecord(response) ? own(response, 'answers') : undefined;
  if (!isRecord(answers)) return refused(null, 'NotAnAnswer', 'neither answers nor an action');
  const entries: Array<[string, ReadonlyArray<string>]> = [];
  for (const id of Object.keys(answers)) {
    const list = answerStrings(answers, id);
    if (list === undefined) return refused(null, 'NotAnAnswer', 'an entry is not { answers: [strings] }');
    entries.push([id, list]);
  }
  return entries;
};

/** Why one question's non-empty answer list does not fit it, or `null`. */
const questionProblem = (question: AnswerableQuestion, list: ReadonlyArray<string>): AnswerRefused | null => {
  const id = question.id;
  const one = (): AnswerRefused | null => (list.length > 1 ? refused(id, 'TooManyAnswers', `${list.length} answers to a question that takes one`) : null);
  switch (question.answerType) {
    case 'singleChoice':
    case 'boolean':
    case 'approval':
    case 'openUrl':
      return one() ?? (optionIndex(question.options, list[0]) < 0 ? refused(id, 'UnknownOption', 'the answer names none of the options') : null);
    case 'multiChoice': {
      const picked = new Set<number>();
      for (const label of list) {
        const index = optionIndex(question.options, label);
        if (index < 0) return refused(id, 'UnknownOption', 'a pick names none of the options');
        picked.add(index);
      }
      const minItems = question.minItems ?? null;
      const maxItems = question.maxItems ?? null;
      if (minItems !== null && picked.size < minItems) return refused(id, 'TooFewPicks', `${picked.size} picks, at least ${minItems} needed`);
      if (maxItems !== null && picked.size > maxItems) return refused(id, 'TooManyPicks', `${picked.size} picks, at most ${maxItems} allowed`);
      return null;
    }
    case 'text':
      return one();
    case 'number':
    case 'integer':
      // A number that does not parse fits: the forms spec leaves it out of the plugin's content (still accept).
      return one();
    default:
      return null;
  }
};

/**
 * Why the host's reply does not fit the card (the mapper's card, or the host protocol's `HostCard`: any
 * {@link AnswerableCard}), or `null` when it does (then {@link answersToResult} and
 * {@link approvalAnswerToResult} map it as given). `{ action: "cancel" | "decline" }` always fits.
 * A form question left without an answer (absent, or an empty list) fits: the plugin validates what
 * it receives. The approval and open-link questions must be answered. Never throws.
 * @example
 * ```ts
 * answerRefusal(card, { answers: { regions: { answers: ['EU', 'US', 'Asia', 'Africa'] } } });
 * // { _tag: 'AnswerRefused', questionId: 'regions', problem: 'TooManyPicks', message: 'regions: 4 picks, at most 3 allowed' }
 * ```
 */
export function answerRefusal(card: AnswerableCard, reply: unknown): AnswerRefused | null {
  if (isHostAction(reply)) return null;
  const entries = replyEntries(reply);
  if (!Array.isArray(entries)) return entries;
  const questions: ReadonlyArray<unknown> = isRecord(card) && Array.isArray(card.questions) ? card.questions : [];
  const byId = new Map<string, AnswerableQuestion>();
  for (const question of questions) if (isRecord(question) && typeof question['id'] === 'string') byId.set(question['id'], question as unknown as AnswerableQuestion);
  for (const [id, list] of entries) {
    const question = byId.get(id);
    if (question === undefined) return refused(null, 'UnknownQuestion', 'an answer to a question the card does not have');
    if (list.length === 0) continue;
    const problem = questionProblem(question, list);
    if (problem !== null) return problem;
  }
  for (const question of byId.values()) {
    if ((question.answerType === 'approval' || question.answerType === 'openUrl') && !entries.some(([id, list]) => id === question.id && list.length > 0)) {
      return refused(question.id, 'MissingAnswer', `no answer to the ${question.answerType === 'approval' ? 'approval' : 'open-link'} question`);
    }
  }
  return null;
}

/**
 * Why the host's reply does not fit the questions of Codex's own `request_user_input` (the model's
 * input request), or `null` when it does: an answer to a question id that was not asked, or — for a
 * question with options and no free-text "other" — a label that names none of them. `{ action }`
 * always fits. Never throws.
 * @example
 * ```ts
 * userInputAnswerRefusal([{ id: 'color', header: 'Color', question: 'Which?', isOther: false, isSecret: false, options: [{ label: 'Red', description: '' }] }],
 *   { answers: { color: { answers: ['Blue'] } } });
 * // { _tag: 'AnswerRefused', questionId: 'color', problem: 'UnknownOption', message: 'color: the answer names none of the options' }
 * ```
 */
export function userInputAnswerRefusal(questions: ReadonlyArray<ToolRequestUserInputQuestion>, reply: unknown): AnswerRefused | null {
  if (isHostAction(reply)) return null;
  const entries = replyEntries(reply);
  if (!Array.isArray(entries)) return entries;
  const asked: ReadonlyArray<unknown> = Array.isArray(questions) ? questions : [];
  for (const [id, list] of entries) {
    const question = asked.find((q): q is ToolRequestUserInputQuestion => isRecord(q) && q['id'] === id);
    if (question === undefined) return refused(null, 'UnknownQuestion', 'an answer to a question the card does not have');
    const options = question.options;
    if (question.isOther === true || !Array.isArray(options) || options.length === 0) continue;
    if (list.some((label) => optionIndex(options, label) < 0)) return refused(id, 'UnknownOption', 'the answer names none of the options');
  }
  return null;
}
