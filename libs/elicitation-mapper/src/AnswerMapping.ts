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
 * - A form with questions of which none got a usable value → cancel (no usable answer); a number or
 *   integer the host answered with text that does not parse is a submission all the same (the forms
 *   spec omits the field; it is never a reason to cancel), so such a form is accepted without it.
 * `AnswerRefusal.ts` is the strict reading an executor applies first.
 *
 * Every function here is pure: JSON in, a result out; nothing throws, whatever the input.
 */
import type { ApprovalChoice, CardQuestion, FormCard, ToolApprovalCard } from './Card.js';
import { acceptResult, cancelResult, type ElicitResult, type FormContent, type FormValue } from './ElicitResult.js';
import { answerStrings, optionIndex, parseNumber } from './internal/answerReading.js';
import { isRecord } from '@wework/decode-issues';
import { own } from './internal/json.js';
import { approvalResult } from './ToolApproval.js';

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
    if (!isRecord(question) || typeof question.id !== 'string' || question.answerType === 'approval' || question.answerType === 'openUrl') continue;
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
  const answers = isRecord(response) ? own(response, 'answers') : undefined;
  return (noQuestions && isRecord(answers)) || answeredNumber(questions, answers) ? acceptResult({}) : cancelResult();
}

/** Whether a number or integer question was answered (its text may not parse: the field is then omitted, the form still accepted). */
const answeredNumber = (questions: unknown, answers: unknown): boolean =>
  Array.isArray(questions) &&
  (questions as ReadonlyArray<unknown>).some(
    (question) => isRecord(question) && (question['answerType'] === 'number' || question['answerType'] === 'integer') && typeof question['id'] === 'string' && (answerStrings(answers, question['id'])?.length ?? 0) > 0,
  );

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
