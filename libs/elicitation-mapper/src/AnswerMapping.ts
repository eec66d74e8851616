/**
 * Card + the host's answers → the elicitation's result. Answers come in the protocol's
 * `ToolRequestUserInputResponse` shape, `{ answers: { [questionId]: { answers: string[] } } }`:
 * option labels for choice questions, raw text for inputs.
 *
 * - choice → the option's stable value; boolean → `true`/`false`; multi-choice → an array of
 *   values in option order; text → as given (empty allowed); number/integer → parsed.
 * - A key is **omitted** when its answer is missing or empty, names no option (any label of a
 *   multi-choice answer), or does not parse as a number (an integer must be a safe integer).
 *   Plugins validate what they receive, as the spec says.
 * - Answers to unknown question ids are ignored: `content` keys ⊆ the schema's properties.
 * - A form with questions of which none got a usable value → cancel (no usable answer).
 *
 * {@link answerRefusal} is the strict reading an executor applies before mapping: an answer that
 * does not fit its card (a label that names no option, an unknown question id, picks outside the
 * array's `minItems`/`maxItems`, text that is not a number, several answers to a one-answer
 * question, an approval choice the card did not offer) is refused with an {@link AnswerRefused}
 * naming the field and the problem — never the host's text — so the host can be asked again
 * instead of the plugin silently getting less than the user meant.
 *
 * Every function here is pure: JSON in, a result out; nothing throws, whatever the input.
 */
import type { ApprovalChoice, CardQuestion, FormCard, ToolApprovalCard } from './Card.js';
import { acceptResult, cancelResult, type ElicitResult, type FormContent, type FormValue } from './ElicitResult.js';
import { isRecord, own } from './internal/json.js';
import { approvalResult } from './ToolApproval.js';

/** The answer strings of question `id`, or `undefined` when the host gave none that are usable. */
const answerStrings = (answers: unknown, id: string): ReadonlyArray<string> | undefined => {
  if (!isRecord(answers)) return undefined;
  const entry = own(answers, id);
  if (!isRecord(entry)) return undefined;
  const list = own(entry, 'answers');
  if (!Array.isArray(list)) return undefined;
  for (const item of list as ReadonlyArray<unknown>) if (typeof item !== 'string') return undefined;
  return list as ReadonlyArray<string>;
};

/** The index of the option labelled `label`, or `-1`. */
const optionIndex = (options: unknown, label: string | undefined): number => {
  if (label === undefined || !Array.isArray(options)) return -1;
  for (let i = 0; i < options.length; i += 1) {
    const option: unknown = options[i];
    if (isRecord(option) && option['label'] === label) return i;
  }
  return -1;
};

const numberSyntax = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Parses a decimal number as typed by a user (no hex, no `Infinity`, no empty string). */
const parseNumber = (raw: string | undefined, integer: boolean): number | undefined => {
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (!numberSyntax.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || (integer && !Number.isSafeInteger(value))) return undefined;
  return value === 0 ? 0 : value; // no -0 in the content
};

const valueAt = (values: unknown, index: number): unknown => (Array.isArray(values) && index >= 0 ? values[index] : undefined);

/** The content value of one question, or `undefined` when it is to be omitted. */
const questionValue = (question: CardQuestion, list: ReadonlyArray<string>): FormValue | undefined => {
  switch (question.answerType) {
    case 'singleChoice':
    case 'boolean': {
      const value = valueAt(question.values, optionIndex(question.options, list[0]));
      return typeof value === 'string' || typeof value === 'boolean' ? value : undefined;
    }
    case 'multiChoice': {
      const picked: Array<boolean> = [];
      for (const label of list) {
        const index = optionIndex(question.options, label);
        if (index < 0) return undefined;
        picked[index] = true;
      }
      const values: Array<string> = [];
      if (!Array.isArray(question.values)) return undefined;
      question.values.forEach((value, i) => {
        if (picked[i] === true && typeof value === 'string') values.push(value);
      });
      return values;
    }
    case 'text':
      return list[0];
    case 'number':
    case 'integer':
      return parseNumber(list[0], question.answerType === 'integer');
    default:
      return undefined;
  }
};

/** The content entries the answers give, in question order. */
const contentEntries = (card: FormCard, response: unknown): Array<[string, FormValue]> => {
  const questions: unknown = isRecord(card) ? card.questions : undefined;
  const answers = isRecord(response) ? own(response, 'answers') : undefined;
  const entries: Array<[string, FormValue]> = [];
  if (!Array.isArray(questions) || !isRecord(answers)) return entries;
  for (const question of questions as ReadonlyArray<CardQuestion>) {
    if (!isRecord(question) || typeof question.id !== 'string' || question.answerType === 'approval') continue;
    const list = answerStrings(answers, question.id);
    if (list === undefined || list.length === 0) continue;
    const value = questionValue(question, list);
    if (value !== undefined) entries.push([question.id, value]);
  }
  return entries;
};

/**
 * The `content` the answers give, one key per question with a usable answer. Never throws.
 * @example
 * ```ts
 * answersToContent(card, { answers: { target: { answers: ['Production'] }, unknown: { answers: ['x'] } } });
 * // { target: 'production' }
 * ```
 */
export function answersToContent(card: FormCard, response: unknown): FormContent {
  return Object.fromEntries(contentEntries(card, response));
}

/**
 * The result of a form answered with `response`: accept with the mapped content, or cancel when
 * no question got a usable answer (a form without questions is accepted with `{}` when the
 * response has an `answers` object). Never throws.
 * @example
 * ```ts
 * answersToResult(card, { answers: { target: { answers: ['Production'] } } });
 * // { action: 'accept', content: { target: 'production' }, _meta: null }
 * answersToResult(card, { answers: {} }); // { action: 'cancel', content: null, _meta: null }
 * ```
 */
export function answersToResult(card: FormCard, response: unknown): ElicitResult {
  const entries = contentEntries(card, response);
  if (entries.length > 0) return acceptResult(Object.fromEntries(entries));
  const questions: unknown = isRecord(card) ? card.questions : undefined;
  const noQuestions = Array.isArray(questions) && questions.length === 0;
  return noQuestions && isRecord(response) && isRecord(own(response, 'answers')) ? acceptResult({}) : cancelResult();
}

/** The approval choice the answer's label names, or `null`. */
export function approvalChoiceOf(card: ToolApprovalCard, response: unknown): ApprovalChoice | null {
  const question: unknown = isRecord(card) && Array.isArray(card.questions) ? card.questions[0] : undefined;
  if (!isRecord(question) || typeof question['id'] !== 'string') return null;
  const answers = isRecord(response) ? own(response, 'answers') : undefined;
  const list = answerStrings(answers, question['id']);
  const choice = valueAt(question['choices'], optionIndex(question['options'], list?.[0]));
  return choice === 'allowOnce' || choice === 'allowForSession' || choice === 'allowAlways' || choice === 'decline' ? choice : null;
}

/**
 * The result of a tool approval answered with `response` (the label of one option): what Codex
 * expects for that choice, or cancel when no offered option is named. Never throws.
 */
export function approvalAnswerToResult(card: ToolApprovalCard, response: unknown): ElicitResult {
  const choice = approvalChoiceOf(card, response);
  return choice === null ? cancelResult() : approvalResult(card, choice);
}

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
  /** Text that does not read as a (decimal) number, or not as a safe integer for an integer question. */
  | 'NotANumber'
  /** No answer to a question that needs one (the approval question). */
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

/** A card's question id as a message names it (ids come from the plugin's schema; a long one is described). */
const fieldName = (id: string): string => (id.length <= 40 ? id : `a field (${id.length} characters)`);

const refused = (questionId: string | null, problem: AnswerProblem, detail: string): AnswerRefused => ({
  _tag: 'AnswerRefused',
  questionId,
  problem,
  message: `${questionId === null ? 'answer' : fieldName(questionId)}: ${detail}`,
});

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
const questionProblem = (question: CardQuestion, list: ReadonlyArray<string>): AnswerRefused | null => {
  const id = question.id;
  const one = (): AnswerRefused | null => (list.length > 1 ? refused(id, 'TooManyAnswers', `${list.length} answers to a question that takes one`) : null);
  switch (question.answerType) {
    case 'singleChoice':
    case 'boolean':
    case 'approval':
      return one() ?? (optionIndex(question.options, list[0]) < 0 ? refused(id, 'UnknownOption', 'the answer names none of the options') : null);
    case 'multiChoice': {
      const picked = new Set<number>();
      for (const label of list) {
        const index = optionIndex(question.options, label);
        if (index < 0) return refused(id, 'UnknownOption', 'a pick names none of the options');
        picked.add(index);
      }
      if (question.minItems !== null && picked.size < question.minItems) return refused(id, 'TooFewPicks', `${picked.size} picks, at least ${question.minItems} needed`);
      if (question.maxItems !== null && picked.size > question.maxItems) return refused(id, 'TooManyPicks', `${picked.size} picks, at most ${question.maxItems} allowed`);
      return null;
    }
    case 'text':
      return one();
    case 'number':
    case 'integer':
      return (
        one() ??
        (parseNumber(list[0], question.answerType === 'integer') === undefined
          ? refused(id, 'NotANumber', question.answerType === 'integer' ? 'not a whole number' : 'not a number')
          : null)
      );
    default:
      return null;
  }
};

/**
 * Why the host's reply does not fit the card, or `null` when it does (then {@link answersToResult}
 * and {@link approvalAnswerToResult} map it as given). `{ action: "cancel" | "decline" }` always fits.
 * A form question left without an answer (absent, or an empty list) fits: the plugin validates what
 * it receives. The approval question must be answered. Never throws.
 * @example
 * ```ts
 * answerRefusal(card, { answers: { regions: { answers: ['EU', 'US', 'Asia', 'Africa'] } } });
 * // { _tag: 'AnswerRefused', questionId: 'regions', problem: 'TooManyPicks', message: 'regions: 4 picks, at most 3 allowed' }
 * ```
 */
export function answerRefusal(card: FormCard | ToolApprovalCard, reply: unknown): AnswerRefused | null {
  if (isRecord(reply)) {
    const action = own(reply, 'action');
    if (action === 'cancel' || action === 'decline') return null;
  }
  const entries = replyEntries(reply);
  if (!Array.isArray(entries)) return entries;
  const questions: ReadonlyArray<unknown> = isRecord(card) && Array.isArray(card.questions) ? card.questions : [];
  const byId = new Map<string, CardQuestion>();
  for (const question of questions) if (isRecord(question) && typeof question['id'] === 'string') byId.set(question['id'], question as unknown as CardQuestion);
  for (const [id, list] of entries) {
    const question = byId.get(id);
    if (question === undefined) return refused(null, 'UnknownQuestion', 'an answer to a question the card does not have');
    if (list.length === 0) continue;
    const problem = questionProblem(question, list);
    if (problem !== null) return problem;
  }
  for (const question of byId.values()) {
    if (question.answerType === 'approval' && !entries.some(([id, list]) => id === question.id && list.length > 0)) {
      return refused(question.id, 'MissingAnswer', 'no answer to the approval question');
    }
  }
  return null;
}
