/**
 * The one request the executor sends to its host, `card/show`: the card (a plugin form, a Codex input
 * request or an approval, in the request_user_input shape) and the host's answer to it.
 *
 * Every value here is plain data; the codec is pure.
 */
import * as t from 'io-ts';
import type { ToolRequestUserInputQuestion } from '@wework/codex-protocol';
import type { ApprovalRequestCard } from '@wework/approval-policy';
import type { Card, HostReply as HostReplyType } from '@wework/elicitation-mapper';

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

/** Why the host's last answer to a card was refused (the card is shown again with it). */
export interface CardAnswerError {
  /** The question the problem is in, or `null` for the answer as a whole. */
  readonly questionId: string | null;
  /** The problem's tag, e.g. `UnknownOption`, `TooManyPicks`, `UnknownLabel`, `NotAnAnswer`. */
  readonly problem: string;
  /** The field and the problem (never the host's own text), e.g. `regions: 4 picks, at most 3 allowed`. */
  readonly message: string;
  /** How many more refused answers cancel the card. */
  readonly attemptsLeft: number;
}

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

/**
 * Codec of the host's answer to `card/show` ({@link HostReplyType | HostReply} of `@wework/elicitation-mapper`):
 * answers by question id (option labels as shown, or text), or cancel / decline.
 * @example
 * ```ts
 * HostReply.decode({ action: 'decline' }); // right({ action: 'decline' })
 * ```
 */
const HostReplyWire = t.union(
  [t.type({ answers: t.record(t.string, t.type({ answers: t.array(t.string) })) }), t.type({ action: t.keyof({ cancel: null, decline: null }) })],
  'HostReply',
);
export const HostReply: t.Type<HostReplyType, HostReplyType, unknown> = new t.Type<HostReplyType, HostReplyType, unknown>(
  'HostReply',
  (u): u is HostReplyType => HostReplyWire.is(u),
  (u, context) => HostReplyWire.validate(u, context),
  t.identity,
);
/** What a host may answer a card with (defined by `@wework/elicitation-mapper`). */
export type HostReply = HostReplyType;

/** The params of `card/show`. */
export interface CardShowParams {
  readonly card: HostCard;
}

/** `card/show` (executor → host): show a card; the host's answer is the response. */
export const CardShow = { method: 'card/show', result: HostReply } as const;
