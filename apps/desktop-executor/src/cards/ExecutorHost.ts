/**
 * What the executor asks of its host (the Wework chat UI, or a test's scripted user): show a card built
 * from a plugin form or a Codex input request, and come back with the user's answer. Later issues extend
 * this interface (approval cards for commands and files, login cards, ...).
 */
import type { ToolRequestUserInputQuestion } from '@wework/codex-protocol';
import type { ApprovalRequestCard } from '@wework/approval-policy';
import type { Card, HostReply } from '@wework/elicitation-mapper';

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
}

/**
 * The host side of the executor. `showCard` resolves with the user's answer (`{ answers }` keyed by
 * question id, option labels as shown) or `{ action: "cancel" | "decline" }`. When `signal` aborts (the
 * task was stopped, or Codex settled the request elsewhere) the host should dismiss the card; the
 * executor has already answered the request with cancel.
 */
export interface ExecutorHost {
  showCard(card: HostCard, signal: AbortSignal): Promise<HostReply>;
}
