/**
 * The cards a chat host renders for an elicitation: a {@link FormCard} for a plugin's business
 * form, a {@link ToolApprovalCard} for Codex's "may this MCP tool run?" prompt, a {@link UrlCard}
 * for a plugin asking the user to open a link (URL mode).
 *
 * Every question has the shape of the protocol's `ToolRequestUserInputQuestion` (`id, header,
 * question, isOther, isSecret, options`) plus what the mapper needs to map the answer back
 * (`answerType`, the option values, the default, `required`). {@link userInputQuestions} strips
 * the extra fields when a host needs the plain protocol objects.
 *
 * Every function here is pure: values in, values out.
 */
import type { ToolRequestUserInputOption, ToolRequestUserInputQuestion, ToolRequestUserInputResponse } from '@wework/codex-protocol';
import { isRecord } from '@wework/decode-issues';

/** How an answer is read back: which kind of control the question is. */
export type AnswerType = 'singleChoice' | 'multiChoice' | 'boolean' | 'text' | 'number' | 'integer' | 'approval' | 'openUrl';

/** Where the elicitation came from; `null` where the request does not say (plain MCP requests). */
export interface ElicitationSource {
  /** The MCP server (plugin) that asked, as Codex names it. */
  readonly serverName: string | null;
  readonly threadId: string | null;
  readonly turnId: string | null;
}

/** Fields every question shares: the protocol's `ToolRequestUserInputQuestion` (read-only). */
interface QuestionCommon {
  /** The property key: question id and the key of the answer in the result's `content`. */
  readonly id: string;
  /** The property's `title`, falling back to the key. */
  readonly header: string;
  /** The property's `description`, falling back to its `title`, then to the key. */
  readonly question: string;
  /** Always `false`: forms have no free-text "other" answer. */
  readonly isOther: false;
  /** Always `false`: MCP elicitation has no secret fields. */
  readonly isSecret: false;
  /** Whether the property is listed in the schema's `required` (the plugin enforces it, not the card). */
  readonly required: boolean;
}

/** One choice (`oneOf`/`anyOf` with `const`, `enum` with optional `enumNames`). */
export interface SingleChoiceQuestion extends QuestionCommon {
  readonly answerType: 'singleChoice';
  /** Labels shown (unique within the question) and option descriptions. */
  readonly options: ReadonlyArray<ToolRequestUserInputOption>;
  /** `values[i]` is the stable value of `options[i]`, returned to the plugin. */
  readonly values: ReadonlyArray<string>;
  /** The preselected option: the one the schema's `default` names, otherwise `0` (the first). */
  readonly defaultIndex: number;
}

/** Several choices (`type: "array"` with `items.enum` or `items.anyOf`); the answer is an array of values. */
export interface MultiChoiceQuestion extends QuestionCommon {
  readonly answerType: 'multiChoice';
  readonly options: ReadonlyArray<ToolRequestUserInputOption>;
  readonly values: ReadonlyArray<string>;
  /** Preselected options: those the schema's `default` array names (in option order); none otherwise. */
  readonly defaultIndices: ReadonlyArray<number>;
  readonly minItems: number | null;
  readonly maxItems: number | null;
}

/** `type: "boolean"`: the options `true` and `false`. */
export interface BooleanQuestion extends QuestionCommon {
  readonly answerType: 'boolean';
  readonly options: ReadonlyArray<ToolRequestUserInputOption>;
  readonly values: readonly [true, false];
  /** `1` when the schema's `default` is `false`, otherwise `0` (`true`, the first option). */
  readonly defaultIndex: 0 | 1;
}

/** A short text input (`type: "string"` without options, or no type and no options). */
export interface TextQuestion extends QuestionCommon {
  readonly answerType: 'text';
  readonly options: null;
  readonly defaultValue: string | null;
  /** The schema's `format` (`email`, `uri`, `date`, `date-time`, ...), a hint for the input. */
  readonly format: string | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
}

/** A number input (`type: "number"` or `"integer"`), parsed from the text the user enters. */
export interface NumberQuestion extends QuestionCommon {
  readonly answerType: 'number' | 'integer';
  readonly options: null;
  readonly defaultValue: number | null;
  readonly minimum: number | null;
  readonly maximum: number | null;
}

/** A question of a plugin's business form. */
export type FormQuestion = SingleChoiceQuestion | MultiChoiceQuestion | BooleanQuestion | TextQuestion | NumberQuestion;

/** A plugin's business form (`mode: "form"` or `"openai/form"`). */
export interface FormCard {
  readonly _tag: 'FormCard';
  readonly source: ElicitationSource;
  /** The request's mode (`openaiForm` is read as `openai/form`). */
  readonly mode: 'form' | 'openai/form';
  /** The elicitation's `message`. */
  readonly message: string;
  /** One question per schema property, in the order the request carries the properties. */
  readonly questions: ReadonlyArray<FormQuestion>;
  /**
   * True exactly when the form is a single single-choice or boolean question: selecting an
   * option submits immediately (the spec's current UI). A lone multi-choice question keeps a
   * Submit button, since one click cannot express several choices.
   */
  readonly submitOnSelect: boolean;
}

/** What the user may answer to a tool approval; only the choices the request offers appear. */
export type ApprovalChoice = 'allowOnce' | 'allowForSession' | 'allowAlways' | 'decline';

/** The single question of a {@link ToolApprovalCard}. */
export interface ApprovalQuestion extends QuestionCommon {
  readonly answerType: 'approval';
  readonly options: ReadonlyArray<ToolRequestUserInputOption>;
  /** `choices[i]` is what `options[i]` means. */
  readonly choices: ReadonlyArray<ApprovalChoice>;
  /** `0`: the first option ("Allow once"). */
  readonly defaultIndex: 0;
}

/** One argument of the tool call, as Codex prepares it for display. */
export interface ToolParamDisplay {
  readonly name: string;
  readonly displayName: string;
  readonly value: unknown;
}

/** Codex asks whether an MCP tool may run (`_meta.codex_approval_kind: "mcp_tool_call"`). */
export interface ToolApprovalCard {
  readonly _tag: 'ToolApprovalCard';
  readonly source: ElicitationSource;
  /** Codex's question, e.g. `Allow the forms MCP server to run tool "echo"?`. */
  readonly message: string;
  readonly tool: {
    readonly name: string | null;
    readonly title: string | null;
    readonly description: string | null;
    /** The arguments of the call (any JSON), as Codex sent them. */
    readonly params: unknown;
    readonly paramsDisplay: ReadonlyArray<ToolParamDisplay> | null;
  };
  /** The choices offered, in display order: allow once, then what `_meta.persist` offers, then decline. */
  readonly choices: ReadonlyArray<ApprovalChoice>;
  readonly questions: readonly [ApprovalQuestion];
  /** Always true: one question, one click. */
  readonly submitOnSelect: true;
}

/** What the user may answer to a URL-mode request: open the link (`accept`), `decline`, or `cancel`. */
export type UrlChoice = 'accept' | 'decline' | 'cancel';

/** The single question of a {@link UrlCard}: Open / Decline / Cancel, nothing preselected. */
export interface OpenUrlQuestion extends QuestionCommon {
  readonly answerType: 'openUrl';
  readonly options: ReadonlyArray<ToolRequestUserInputOption>;
  /** `choices[i]` is what `options[i]` means. */
  readonly choices: ReadonlyArray<UrlChoice>;
}

/**
 * The link of a URL-mode request once it passed the check (`checkElicitationUrl`): the address as the
 * WHATWG URL parser reads it (what a browser opens), and its scheme and host, shown apart from the rest.
 */
export interface UrlTarget {
  /** The parsed address (`href`), the only one a host may open. */
  readonly url: string;
  /** `https`, or `http` on a loopback host. */
  readonly scheme: 'https' | 'http';
  /** The host as parsed (an internationalized name in its `xn--` form), with the port when there is one. */
  readonly host: string;
  /** The plugin's id of the request; `notifications/elicitation/complete` names it. */
  readonly elicitationId: string;
}

/**
 * A plugin asks the user to open a link (`mode: "url"`, MCP 2025-11-25): a sign-in or a payment whose
 * data must not pass through the client. Nothing opens the link but the user's click in the host.
 */
export interface UrlCard {
  readonly _tag: 'UrlCard';
  readonly source: ElicitationSource;
  /** The elicitation's `message`: why the plugin asks. */
  readonly message: string;
  readonly target: UrlTarget;
  readonly questions: readonly [OpenUrlQuestion];
  /** Always true: one question, one click. */
  readonly submitOnSelect: true;
}

/** A card for an elicitation. */
export type Card = FormCard | ToolApprovalCard | UrlCard;

/** Any question of any card. */
export type CardQuestion = FormQuestion | ApprovalQuestion | OpenUrlQuestion;

/**
 * The questions of a card as plain protocol `ToolRequestUserInputQuestion`s (the mapper's
 * metadata stripped), e.g. to send a `request_user_input` block to a host UI.
 * @example
 * ```ts
 * const card = elicitationToCard(params);
 * if (card._tag === 'Right') render(userInputQuestions(card.right));
 * ```
 */
export function userInputQuestions(card: Card): Array<ToolRequestUserInputQuestion> {
  const questions: unknown = isRecord(card) ? card.questions : undefined;
  if (!Array.isArray(questions)) return [];
  const out: Array<ToolRequestUserInputQuestion> = [];
  for (const q of questions as ReadonlyArray<unknown>) {
    if (!isRecord(q) || typeof q['id'] !== 'string') continue;
    const options = Array.isArray(q['options'])
      ? (q['options'] as ReadonlyArray<unknown>).filter(isOption).map((o) => ({ label: o.label, description: o.description }))
      : null;
    out.push({
      id: q['id'],
      header: typeof q['header'] === 'string' ? q['header'] : q['id'],
      question: typeof q['question'] === 'string' ? q['question'] : q['id'],
      isOther: false,
      isSecret: false,
      options,
    });
  }
  return out;
}

const isOption = (value: unknown): value is ToolRequestUserInputOption =>
  isRecord(value) && typeof value['label'] === 'string' && typeof value['description'] === 'string';

/**
 * The answers a host would send if the user submitted the card's defaults: the default option
 * of every choice question (its label), the default text or number of inputs that have one.
 * Inputs without a default are left out.
 * @example
 * ```ts
 * responseForCard(card, defaultAnswers(card)); // accept with the schema's defaults
 * ```
 */
export function defaultAnswers(card: Card): ToolRequestUserInputResponse {
  const answers: Array<[string, { answers: Array<string> }]> = [];
  const questions: unknown = isRecord(card) ? card.questions : undefined;
  if (!Array.isArray(questions)) return { answers: {} };
  for (const q of questions as ReadonlyArray<CardQuestion>) {
    const labels = defaultLabels(q);
    if (labels !== null) answers.push([q.id, { answers: labels }]);
  }
  return { answers: Object.fromEntries(answers) };
}

const defaultLabels = (q: CardQuestion): Array<string> | null => {
  if (!isRecord(q) || typeof q.id !== 'string') return null;
  const labelAt = (index: unknown): string | null => {
    const option: unknown = Array.isArray(q.options) && typeof index === 'number' ? q.options[index] : undefined;
    return isOption(option) ? option.label : null;
  };
  switch (q.answerType) {
    case 'singleChoice':
    case 'boolean':
    case 'approval': {
      const label = labelAt(q.defaultIndex);
      return label === null ? null : [label];
    }
    case 'multiChoice':
      return Array.isArray(q.defaultIndices) ? q.defaultIndices.map(labelAt).filter((l): l is string => l !== null) : null;
    case 'openUrl':
      // Nothing is preselected: opening a link is the user's own click.
      return null;
    case 'text':
      return typeof q.defaultValue === 'string' ? [q.defaultValue] : null;
    case 'number':
    case 'integer':
      return typeof q.defaultValue === 'number' ? [String(q.defaultValue)] : null;
    default:
      return null;
  }
};
