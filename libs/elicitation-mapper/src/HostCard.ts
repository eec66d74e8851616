/**
 * The mapper's card as the host protocol's card (`@wework/host-protocol`): each question in the
 * request_user_input shape with how to answer it (the answer type, the default answer as labels or
 * text, the limits). What maps an answer back (option values, approval choices) stays in the mapper's
 * {@link Card}; the host sees one representation of its questions.
 *
 * Every function here is pure: values in, values out.
 */
import type { CardKind, HostCardUrl, HostQuestion } from '@wework/host-protocol';
import type { Card, CardQuestion } from './Card.js';
import { isRecord } from '@wework/decode-issues';
import { finiteOrNull, stringOrNull } from './internal/json.js';

type Option = { readonly label: string; readonly description: string };
const isOption = (value: unknown): value is Option => isRecord(value) && typeof value['label'] === 'string' && typeof value['description'] === 'string';
/** The question's options with the value each stands for (`values[i]`, or the approval choice `choices[i]`). */
const optionsOf = (question: CardQuestion): ReadonlyArray<Option & { readonly value?: unknown }> | null => {
  if (!Array.isArray(question.options)) return null;
  const values: unknown = 'values' in question ? question.values : 'choices' in question ? question.choices : undefined;
  return (question.options as ReadonlyArray<unknown>).flatMap((option, index) => {
    if (!isOption(option)) return [];
    const value: unknown = Array.isArray(values) ? (values as ReadonlyArray<unknown>)[index] : undefined;
    return [{ label: option.label, description: option.description, ...(value === undefined ? {} : { value }) }];
  });
};
const labelsAt = (options: ReadonlyArray<Option> | null, indices: unknown): ReadonlyArray<string> =>
  options === null || !Array.isArray(indices) ? [] : (indices as ReadonlyArray<unknown>).flatMap((index) => (typeof index === 'number' && options[index] !== undefined ? [options[index].label] : []));

const noLimits = { format: null, minLength: null, maxLength: null, minimum: null, maximum: null, minItems: null, maxItems: null } as const;

/** One question of the mapper's card as the protocol's question; `null` for what is not a question of a card. */
function hostQuestionOf(question: CardQuestion): HostQuestion | null {
  if (!isRecord(question) || typeof question.id !== 'string') return null;
  const options = optionsOf(question);
  const common = {
    id: question.id,
    header: typeof question.header === 'string' ? question.header : question.id,
    question: typeof question.question === 'string' ? question.question : question.id,
    isOther: false,
    isSecret: false,
    options,
    required: question.required === true,
    ...noLimits,
  } as const;
  switch (question.answerType) {
    case 'singleChoice':
    case 'boolean':
    case 'approval':
      return { ...common, answerType: question.answerType, defaultAnswers: labelsAt(options, [question.defaultIndex]) };
    case 'openUrl':
      // Nothing preselected: opening the link is the user's own click.
      return { ...common, answerType: question.answerType, defaultAnswers: [] };
    case 'multiChoice':
      return {
        ...common,
        answerType: question.answerType,
        defaultAnswers: labelsAt(options, question.defaultIndices),
        minItems: finiteOrNull(question.minItems),
        maxItems: finiteOrNull(question.maxItems),
      };
    case 'text': {
      const text = stringOrNull(question.defaultValue);
      return {
        ...common,
        answerType: question.answerType,
        defaultAnswers: text === null ? [] : [text],
        format: stringOrNull(question.format),
        minLength: finiteOrNull(question.minLength),
        maxLength: finiteOrNull(question.maxLength),
      };
    }
    case 'number':
    case 'integer': {
      const value = finiteOrNull(question.defaultValue);
      return {
        ...common,
        answerType: question.answerType,
        defaultAnswers: value === null ? [] : [String(value)],
        minimum: finiteOrNull(question.minimum),
        maximum: finiteOrNull(question.maximum),
      };
    }
    default:
      return null;
  }
}

/**
 * The questions of the mapper's card as the protocol's questions, in the card's order.
 * @example
 * ```ts
 * const card = elicitationToCard(params);
 * if (card._tag === 'Right') hostQuestionsOf(card.right); // [{ id: 'target', answerType: 'singleChoice', defaultAnswers: ['Staging'], ... }]
 * ```
 */
export const hostQuestionsOf = (card: Card): ReadonlyArray<HostQuestion> =>
  isRecord(card) && Array.isArray(card.questions) ? (card.questions as ReadonlyArray<CardQuestion>).flatMap((question) => hostQuestionOf(question) ?? []) : [];

/** Which family of protocol card the mapper's card is: a plugin's `form`, a `toolApproval`, or a `url` to open. */
export const hostCardKindOf = (card: Card): CardKind => {
  if (!isRecord(card)) return 'form';
  return card._tag === 'ToolApprovalCard' ? 'toolApproval' : card._tag === 'UrlCard' ? 'url' : 'form';
};

/**
 * The link of a URL card as the protocol's card carries it (the checked address, its scheme and host, the
 * plugin's `elicitationId`), or `null` for any other card.
 * @example
 * ```ts
 * hostUrlOf(card); // { url: 'https://auth.example.com/connect', scheme: 'https', host: 'auth.example.com', elicitationId: 'e1' }
 * ```
 */
export const hostUrlOf = (card: Card): HostCardUrl | null => {
  if (!isRecord(card) || card._tag !== 'UrlCard' || !isRecord(card.target)) return null;
  const { url, scheme, host, elicitationId } = card.target;
  return typeof url === 'string' && (scheme === 'https' || scheme === 'http') && typeof host === 'string' && typeof elicitationId === 'string'
    ? { url, scheme, host, elicitationId }
    : null;
};
