/**
 * The one request the executor sends to its host, `card/show`: the card (a plugin form, a tool approval,
 * a plugin's link to open, a Codex input request or an approval of a command, a patch or permissions, in
 * the request_user_input shape) and the host's answer to it. The card carries one representation of its questions: the
 * request_user_input fields (`id, header, question, isOther, isSecret, options`) and what a host needs to
 * render and pre-fill the control (the answer type, the default answer, the limits). How an answer is
 * mapped back (option values, approval decisions) stays with the executor.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { nullable } from './internal/nullable.js';
import { requestDescriptor } from './Descriptor.js';


/**
 * One option of a question: the label the answer names, its explanation, and the stable value it stands for
 * when there is one (the value a plugin receives, or the approval decision Codex receives), for a host that
 * keys its rendering by value; answers always name the label.
 */
export const HostOption = t.intersection([t.type({ label: t.string, description: t.string }), t.partial({ value: t.unknown })], 'HostOption');
/** See the codec {@link HostOption}. */
export type HostOption = t.TypeOf<typeof HostOption>;

/**
 * How a question is answered: one option (`singleChoice`, `boolean`, `approval`), several options
 * (`multiChoice`, bounded by `minItems` / `maxItems`), a text (`text`) or a number typed as text
 * (`number`, `integer`: one that does not parse is left out of the plugin's answer, as the forms spec says),
 * or `openUrl`: the one question of a `url` card, Open / Decline / Cancel (the host opens the card's
 * `url` on the user's click on Open, and answers Open).
 */
export const HostAnswerType = t.keyof(
  { singleChoice: null, multiChoice: null, boolean: null, text: null, number: null, integer: null, approval: null, openUrl: null },
  'HostAnswerType',
);
/** See the codec {@link HostAnswerType}. */
export type HostAnswerType = t.TypeOf<typeof HostAnswerType>;

/**
 * A question of a card: the protocol's request_user_input question (`id` is the answer's key; `options`
 * are `null` for an input) with how to answer it. `defaultAnswers` is what the control starts on: the
 * labels of the preselected options (in option order) or the pre-filled text; empty when nothing is.
 */
export const HostQuestion = t.type(
  {
    id: t.string,
    header: t.string,
    question: t.string,
    isOther: t.boolean,
    isSecret: t.boolean,
    options: nullable(t.readonlyArray(HostOption)),
    answerType: HostAnswerType,
    /** Whether the plugin lists the field as required (the plugin validates it; an empty text may be sent). */
    required: t.boolean,
    defaultAnswers: t.readonlyArray(t.string),
    /** The schema's `format` of a text (`email`, `uri`, `date`, ...), a hint for the input. */
    format: nullable(t.string),
    minLength: nullable(t.number),
    maxLength: nullable(t.number),
    minimum: nullable(t.number),
    maximum: nullable(t.number),
    minItems: nullable(t.number),
    maxItems: nullable(t.number),
  },
  'HostQuestion',
);
/** See the codec {@link HostQuestion}. */
export type HostQuestion = t.TypeOf<typeof HostQuestion>;

/** Where a card came from. */
export const CardOrigin = t.keyof(
  {
    /** A plugin's form or Codex's "allow this tool" question, as `mcpServer/elicitation/request`. */
    mcpElicitation: null,
    /** Codex's own `item/tool/requestUserInput` (the model's request_user_input tool, or an approval fallback). */
    requestUserInput: null,
    /** `item/commandExecution/requestApproval`: may this command run? */
    commandApproval: null,
    /** `item/fileChange/requestApproval`: may this patch be applied? */
    fileChangeApproval: null,
    /** `item/permissions/requestApproval`: may the task get these permissions? */
    permissionsApproval: null,
  },
  'CardOrigin',
);
/** See the codec {@link CardOrigin}. */
export type CardOrigin = t.TypeOf<typeof CardOrigin>;

/**
 * Which family of card it is: a plugin's business `form`, a `toolApproval` (may this MCP tool run?), an
 * `approval` of a command, a patch or permissions (its decisions are the only answers), Codex's own
 * `input` request, or a plugin's `url` to open (a sign-in or a payment; the card's `url` part).
 */
export const CardKind = t.keyof({ form: null, toolApproval: null, approval: null, input: null, url: null }, 'CardKind');
/** See the codec {@link CardKind}. */
export type CardKind = t.TypeOf<typeof CardKind>;

/** Why the host's last answer to a card was refused (the card is shown again with it). */
export const CardAnswerError = t.type(
  {
    /** The question the problem is in, or `null` for the answer as a whole. */
    questionId: nullable(t.string),
    /** The problem's tag, e.g. `UnknownOption`, `TooManyPicks`, `UnknownLabel`, `NotAnAnswer`. */
    problem: t.string,
    /** The field and the problem (never the host's own text), e.g. `regions: 4 picks, at most 3 allowed`. */
    message: t.string,
    /** How many more refused answers cancel the card. */
    attemptsLeft: t.number,
  },
  'CardAnswerError',
);
/** See the codec {@link CardAnswerError}. */
export type CardAnswerError = t.TypeOf<typeof CardAnswerError>;

/**
 * The link of a `url` card (a plugin's URL-mode elicitation): the address the executor checked (only
 * `https`, or `http` on a loopback host, without credentials), its scheme and host to show apart from the
 * rest, and the plugin's id of the request. The executor never opens it; a host opens `url` only on the
 * user's click, in a new browsing context without an opener.
 */
export const HostCardUrl = t.type(
  {
    /** The checked address as a WHATWG URL parser reads it; the only one a host may open. */
    url: t.string,
    scheme: t.keyof({ https: null, http: null }),
    /** The host (with the port when there is one), an internationalized name in its `xn--` form. */
    host: t.string,
    /** The plugin's id of the request (what its completion notification names). */
    elicitationId: t.string,
  },
  'HostCardUrl',
);
/** See the codec {@link HostCardUrl}. */
export type HostCardUrl = t.TypeOf<typeof HostCardUrl>;

/** A card for the host to render as a request_user_input block. */
export const HostCard = t.intersection(
  [
    t.type({
      /** Stable for the lifetime of the request; `card/dismissed` names it when it is settled without the host. */
      cardId: t.string,
      origin: CardOrigin,
      kind: CardKind,
      threadId: t.string,
      turnId: nullable(t.string),
      /** The MCP server that asked, for elicitations. */
      serverName: nullable(t.string),
      /** The elicitation's message (the card's title line), when there is one. */
      message: nullable(t.string),
      /** The questions, in the order to show them. */
      questions: t.readonlyArray(HostQuestion),
      /** Selecting an option submits at once (a single question with options). */
      submitOnSelect: t.boolean,
    }),
    t.partial({
      /** Set when the card is shown again because the host's last answer did not fit it; `null` or absent on the first show. */
      error: nullable(CardAnswerError),
      /** The link of a `url` card (absent or `null` on every other kind). */
      url: nullable(HostCardUrl),
    }),
  ],
  'HostCard',
);
/** See the codec {@link HostCard}. */
export type HostCard = t.TypeOf<typeof HostCard>;

/**
 * The host's answer to `card/show`: answers by question id (option labels as shown, or text), or cancel /
 * decline.
 * @example
 * ```ts
 * HostReply.decode({ action: 'decline' }); // right({ action: 'decline' })
 * ```
 */
export const HostReply = t.union(
  [t.type({ answers: t.record(t.string, t.type({ answers: t.array(t.string) })) }), t.type({ action: t.keyof({ cancel: null, decline: null }) })],
  'HostReply',
);
/** See the codec {@link HostReply}. */
export type HostReply = t.TypeOf<typeof HostReply>;

/** The params of `card/show`. */
export const CardShowParams = t.type({ card: HostCard }, 'CardShowParams');
/** See the codec {@link CardShowParams}. */
export type CardShowParams = t.TypeOf<typeof CardShowParams>;

/** `card/show` (executor → host): show a card; the host's answer is the response. */
export const CardShow = requestDescriptor('card/show', CardShowParams, HostReply);

/** Every request the executor sends to its host, by method. */
export const ExecutorRequests = { [CardShow.method]: CardShow } as const;

/**
 * A question in the request_user_input shape as a {@link HostQuestion} with no default and no limits (Codex's
 * own input requests, approval decisions): what a host needs beyond the plain question is its answer type,
 * and the options' values where they stand for one (`values[i]` of `options[i]`).
 * @example
 * ```ts
 * plainHostQuestion({ id: 'decision', header: 'Run?', question: 'Run ls?', isOther: false, isSecret: false, options: [{ label: 'Run once', description: '' }] }, 'approval');
 * // { id: 'decision', ..., answerType: 'approval', required: true, defaultAnswers: [], format: null, minLength: null, ... }
 * ```
 */
export const plainHostQuestion = (
  question: Pick<HostQuestion, 'id' | 'header' | 'question' | 'isOther' | 'isSecret' | 'options'>,
  answerType: HostAnswerType,
  values: ReadonlyArray<unknown> = [],
): HostQuestion => ({
  id: question.id,
  header: question.header,
  question: question.question,
  isOther: question.isOther,
  isSecret: question.isSecret,
  options:
    question.options === null
      ? null
      : question.options.map((option, index) => ({ label: option.label, description: option.description, ...(index < values.length ? { value: values[index] } : {}) })),
  answerType,
  required: true,
  defaultAnswers: [],
  format: null,
  minLength: null,
  maxLength: null,
  minimum: null,
  maximum: null,
  minItems: null,
  maxItems: null,
});
