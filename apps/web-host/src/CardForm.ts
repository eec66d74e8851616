/**
 * A card as the web host shows it, and the form state behind it: the `card/show` params read into
 * fields (one per question), the user's edits, the problems shown before submit, and the reply sent.
 *
 * The fields follow the forms spec's current UI: every question with options starts on its first
 * option (or the schema's default), a single-question option form submits on click, text may be sent
 * empty, booleans are `true`/`false`. Beyond it: arrays are a real multi-select bounded by their
 * `minItems`/`maxItems`, numbers and integers carry their range, text carries its format hint
 * (`email`, `uri`, `date`, ...), and defaults are pre-filled. What the executor enforces (picks within
 * the limits, options that exist, numbers that parse) is checked here first with the executor's own
 * rule (`answerRefusal` of `@wework/elicitation-mapper`), so the user sees the problem before sending.
 *
 * Every function here is pure: JSON in, values out; nothing throws, whatever the card.
 */
import * as E from 'fp-ts/lib/Either.js';
import { answerRefusal, checkElicitationUrl } from '@wework/elicitation-mapper';
import { describeDecodeErrors, HostCard, type CardAnswerError, type CardKind, type CardOrigin, type HostQuestion, type HostReply } from '@wework/host-protocol';

/** One option of a choice: its label (what the answer names) and its explanation. */
export interface FieldOption {
  readonly label: string;
  readonly description: string;
}

/** What every field shares: the question's id (the answer's key), header and text. */
interface FieldCommon {
  readonly id: string;
  readonly header: string;
  readonly question: string;
}

/** One option of several (single choice, boolean, an approval's decisions, an input request's options). */
export interface ChoiceField extends FieldCommon {
  readonly kind: 'choice';
  readonly options: ReadonlyArray<FieldOption>;
  /** The selected option; starts on the default (the first option unless the schema names another). */
  readonly selected: number;
}

/** Several options of several: an array question, bounded by its limits. */
export interface MultiField extends FieldCommon {
  readonly kind: 'multi';
  readonly options: ReadonlyArray<FieldOption>;
  /** The picked options, in option order. */
  readonly selected: ReadonlyArray<number>;
  readonly minItems: number | null;
  readonly maxItems: number | null;
}

/** A short text; may be sent empty (the plugin validates required values). */
export interface TextField extends FieldCommon {
  readonly kind: 'text';
  readonly value: string;
  /** The schema's `format` (`email`, `uri`, `date`, `date-time`, ...), a hint for the input. */
  readonly format: string | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  /** A secret input (Codex's input requests may ask for one): never echoed. */
  readonly secret: boolean;
}

/** A number or integer, edited as text; left empty it is not answered. */
export interface NumberField extends FieldCommon {
  readonly kind: 'number';
  readonly value: string;
  readonly integer: boolean;
  readonly minimum: number | null;
  readonly maximum: number | null;
}

/** A field of a card. */
export type Field = ChoiceField | MultiField | TextField | NumberField;

/**
 * The link of a `url` card, as the host may open it: the executor's checked address, checked here again
 * with the same rule (only `https`, or `http` on loopback), and the labels of its Open / Decline / Cancel.
 */
export interface UrlLink {
  /** The question the answer names. */
  readonly questionId: string;
  /** The address to open on the user's click, and nothing else. */
  readonly href: string;
  readonly scheme: 'https' | 'http';
  readonly host: string;
  /** The option labels standing for accept (Open), decline and cancel. */
  readonly labels: { readonly accept: string | null; readonly decline: string | null; readonly cancel: string | null };
}

/** A card ready to render, with its form state. */
export interface CardModel {
  readonly cardId: string;
  readonly origin: CardOrigin;
  readonly threadId: string;
  readonly kind: CardKind;
  /** The elicitation's message (the card's title line), when there is one. */
  readonly message: string | null;
  readonly serverName: string | null;
  readonly fields: ReadonlyArray<Field>;
  /** A click on an option answers the card (a single question with options). */
  readonly submitOnSelect: boolean;
  /** Why the executor refused the last answer (the card is shown again), or `null`. */
  readonly error: CardAnswerError | null;
  /** The card as the executor sent it (its questions are what the executor's own answer check reads). */
  readonly card: HostCard;
  /** The link of a `url` card when it may be opened; `null` or absent for other cards, or a link that fails the check here. */
  readonly link?: UrlLink | null;
}

/** The card in a `card/show` does not have the shape of the protocol's card. */
export interface InvalidCard {
  readonly _tag: 'InvalidCard';
  /** The places and expected types, never the values. */
  readonly message: string;
}

const inRange = (index: number, length: number): number => (index >= 0 && index < length ? index : 0);
const indexOf = (q: HostQuestion, label: string | undefined): number => (label === undefined ? -1 : (q.options ?? []).findIndex((option) => option.label === label));

/** The field of a question: its control by answer type, starting on its default answer, with its limits. */
function fieldOf(q: HostQuestion): Field {
  const common = { id: q.id, header: q.header, question: q.question };
  const options = q.options ?? [];
  switch (q.answerType) {
    case 'singleChoice':
    case 'boolean':
    case 'approval':
    case 'openUrl':
      if (options.length > 0) return { kind: 'choice', ...common, options, selected: inRange(indexOf(q, q.defaultAnswers[0]), options.length) };
      break;
    case 'multiChoice': {
      const picked = [...new Set(q.defaultAnswers.map((label) => indexOf(q, label)).filter((i) => i >= 0))].sort((a, b) => a - b);
      return { kind: 'multi', ...common, options, selected: picked, minItems: q.minItems, maxItems: q.maxItems };
    }
    case 'number':
    case 'integer':
      return { kind: 'number', ...common, value: q.defaultAnswers[0] ?? '', integer: q.answerType === 'integer', minimum: q.minimum, maximum: q.maximum };
    case 'text':
      break;
  }
  return { kind: 'text', ...common, value: q.defaultAnswers[0] ?? '', format: q.format, minLength: q.minLength, maxLength: q.maxLength, secret: q.isSecret };
}

/** The label of the option of `question` whose value is `value`, or `null`. */
const labelFor = (question: HostQuestion, value: string): string | null => (question.options ?? []).find((option) => option.value === value)?.label ?? null;

/**
 * The link of a `url` card, or `null`: the card's url part checked again with the executor's rule, its
 * host as the check reads it equal to the host the card names, and its one `openUrl` question.
 */
export function linkOf(card: HostCard): UrlLink | null {
  const question = card.questions.length === 1 ? card.questions[0] : undefined;
  if (card.kind !== 'url' || card.url === undefined || card.url === null || question?.answerType !== 'openUrl') return null;
  const checked = checkElicitationUrl(card.url.url);
  if (E.isLeft(checked) || checked.right.host !== card.url.host || checked.right.scheme !== card.url.scheme) return null;
  return {
    questionId: question.id,
    href: checked.right.url,
    scheme: checked.right.scheme,
    host: checked.right.host,
    labels: { accept: labelFor(question, 'accept'), decline: labelFor(question, 'decline'), cancel: labelFor(question, 'cancel') },
  };
}

/**
 * The reply to a `url` card: the label standing for the choice (Open is `accept`), or the protocol's
 * `{ action }` for decline and cancel when the card has no such option. Open is only offered with a label.
 */
export function linkReply(link: UrlLink, choice: 'accept' | 'decline' | 'cancel'): HostReply | null {
  const label = link.labels[choice];
  if (label !== null) return { answers: { [link.questionId]: { answers: [label] } } };
  return choice === 'accept' ? null : { action: choice };
}

/**
 * Reads the card of a `card/show` into a {@link CardModel}: the plugin form's fields from the mapper's
 * questions (answer types, defaults, limits), an approval's decisions from the card's own questions
 * (in the order Codex advertised them, with their explanations). A card that does not fit the
 * protocol is an {@link InvalidCard} whose message never quotes a value.
 * @example
 * ```ts
 * const model = readCard(params.card);
 * if (E.isRight(model)) render(model.right); else log(model.left.message);
 * ```
 */
export function readCard(raw: unknown): E.Either<InvalidCard, CardModel> {
  const decoded = HostCard.decode(raw);
  if (E.isLeft(decoded)) return E.left({ _tag: 'InvalidCard', message: describeDecodeErrors(decoded.left, 'card') });
  const card = decoded.right;
  const fields = card.questions.map(fieldOf);
  return E.right({
    cardId: card.cardId,
    origin: card.origin,
    threadId: card.threadId,
    kind: card.kind,
    message: card.message,
    serverName: card.serverName,
    fields,
    submitOnSelect: card.submitOnSelect && fields.length === 1 && fields[0]?.kind === 'choice',
    error: card.error ?? null,
    card,
    link: linkOf(card),
  });
}

const replaceField = (model: CardModel, id: string, update: (field: Field) => Field): CardModel => ({
  ...model,
  fields: model.fields.map((field) => (field.id === id ? update(field) : field)),
});

/** Selects option `index` of the choice field `id` (anything else is left as it is). */
export const selectOption = (model: CardModel, id: string, index: number): CardModel =>
  replaceField(model, id, (field) => (field.kind === 'choice' && Number.isInteger(index) && index >= 0 && index < field.options.length ? { ...field, selected: index } : field));

/** What a toggle did: picked or unpicked, or refused because the field already has its `maxItems` picks. */
export type ToggleOutcome = 'picked' | 'unpicked' | 'refused' | 'ignored';

/**
 * Picks or unpicks option `index` of the multi-select `id`. A pick beyond `maxItems` is refused (the
 * model is unchanged), so the control never holds more than the plugin allows.
 */
export function toggleOption(model: CardModel, id: string, index: number): readonly [CardModel, ToggleOutcome] {
  const field = model.fields.find((f) => f.id === id);
  if (field?.kind !== 'multi' || !Number.isInteger(index) || index < 0 || index >= field.options.length) return [model, 'ignored'];
  if (field.selected.includes(index)) return [replaceField(model, id, () => ({ ...field, selected: field.selected.filter((i) => i !== index) })), 'unpicked'];
  if (field.maxItems !== null && field.selected.length >= field.maxItems) return [model, 'refused'];
  return [replaceField(model, id, () => ({ ...field, selected: [...field.selected, index].sort((a, b) => a - b) })), 'picked'];
}

/** Sets the text of the text or number field `id`. */
export const setText = (model: CardModel, id: string, value: string): CardModel =>
  replaceField(model, id, (field) => (field.kind === 'text' || field.kind === 'number' ? { ...field, value } : field));

/** A problem to show next to a field before the answer is sent. */
export interface FieldProblem {
  /** The field, or `null` for the answer as a whole. */
  readonly fieldId: string | null;
  readonly message: string;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The number the text of a number field reads as, or `undefined`. */
export function parseFieldNumber(text: string, integer: boolean): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return undefined;
  return integer && !Number.isSafeInteger(value) ? undefined : value;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Why a non-empty text does not fit its format hint, or `null` (unknown formats are not checked). */
function formatProblem(format: string | null, value: string): string | null {
  switch (format) {
    case 'email':
      return EMAIL.test(value) ? null : 'Enter an email address, like name@example.com.';
    case 'uri':
    case 'url': {
      const ok = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value) && URL.canParse(value);
      return ok ? null : 'Enter a full address, like https://example.com.';
    }
    case 'date': {
      const m = DATE.exec(value);
      const date = m === null ? null : new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      const ok = m !== null && date !== null && date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
      return ok ? null : 'Enter a date as YYYY-MM-DD.';
    }
    default:
      return null;
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The problem of one field, or `null`. Empty text and empty numbers have none (they may be sent empty). */
export function fieldProblem(field: Field): string | null {
  switch (field.kind) {
    case 'choice':
      return null;
    case 'multi':
      if (field.minItems !== null && field.selected.length < field.minItems) return `Pick at least ${plural(field.minItems, 'option')}.`;
      if (field.maxItems !== null && field.selected.length > field.maxItems) return `Pick at most ${plural(field.maxItems, 'option')}.`;
      return null;
    case 'text': {
      if (field.value === '') return null;
      if (field.minLength !== null && field.value.length < field.minLength) return `Enter at least ${plural(field.minLength, 'character')}.`;
      if (field.maxLength !== null && field.value.length > field.maxLength) return `Enter at most ${plural(field.maxLength, 'character')}.`;
      return formatProblem(field.format, field.value);
    }
    case 'number': {
      if (field.value.trim() === '') return null;
      const value = parseFieldNumber(field.value, field.integer);
      if (value === undefined) return field.integer ? 'Enter a whole number.' : 'Enter a number.';
      if (field.minimum !== null && value < field.minimum) return field.maximum === null ? `Enter ${field.minimum} or more.` : `Enter a number from ${field.minimum} to ${field.maximum}.`;
      if (field.maximum !== null && value > field.maximum) return field.minimum === null ? `Enter ${field.maximum} or less.` : `Enter a number from ${field.minimum} to ${field.maximum}.`;
      return null;
    }
  }
}

/** The answers of the model as the protocol's reply: option labels, or the text (empty text included; an empty number is left out). */
export function replyOf(model: CardModel): { readonly answers: Record<string, { answers: string[] }> } {
  const answers: Record<string, { answers: string[] }> = {};
  for (const field of model.fields) {
    const list =
      field.kind === 'choice'
        ? [field.options[field.selected]?.label].filter((l): l is string => l !== undefined)
        : field.kind === 'multi'
          ? field.selected.map((i) => field.options[i]?.label).filter((l): l is string => l !== undefined)
          : field.kind === 'number'
            ? field.value.trim() === ''
              ? []
              : [field.value.trim()]
            : [field.value];
    Object.defineProperty(answers, field.id, { value: { answers: list }, enumerable: true, writable: true, configurable: true });
  }
  return { answers };
}

/** What submitting does: send this reply, or show these problems first. */
export type Submission = { readonly _tag: 'Send'; readonly reply: HostReply } | { readonly _tag: 'Problems'; readonly problems: ReadonlyArray<FieldProblem> };

/**
 * Submitting the card: every field's problem, else the executor's own check of the reply
 * (`answerRefusal`), else the reply to send.
 */
export function submit(model: CardModel): Submission {
  const problems = model.fields.flatMap((field) => {
    const message = fieldProblem(field);
    return message === null ? [] : [{ fieldId: field.id, message }];
  });
  if (problems.length > 0) return { _tag: 'Problems', problems };
  const reply = replyOf(model);
  const refused = answerRefusal(model.card, reply);
  return refused === null ? { _tag: 'Send', reply } : { _tag: 'Problems', problems: [{ fieldId: refused.questionId, message: refused.message }] };
}

/** A click on option `index` of a submit-on-select card: that option selected, and the reply to send at once. */
export function submitOption(model: CardModel, id: string, index: number): Submission {
  return submit(selectOption(model, id, index));
}

/** Whether the card offers Cancel and Decline (plugin forms, links to open and input requests do; an approval's answers are its advertised decisions only). */
export const offersCancel = (model: CardModel): boolean => model.kind !== 'approval' && model.kind !== 'toolApproval';
/** Whether the card offers Decline (plugin forms and links to open). */
export const offersDecline = (model: CardModel): boolean => model.kind === 'form' || model.kind === 'url';
