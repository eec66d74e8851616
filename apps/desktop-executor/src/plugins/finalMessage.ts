/**
 * The final message of a turn, shaped for `connector_auth_required` detection (`@wework/local-auth`): the
 * last agent message as content, the turn's error, and the turn's tool calls as tool blocks (their name,
 * error and result — never anything presentational). Only what the turn produced; the transcript before it
 * is never rescanned.
 */
import type { ThreadItem, Turn } from '@wework/codex-protocol';

/** What detection reads of a finished turn. */
export interface FinalMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly error: string | null;
  readonly blocks: ReadonlyArray<{ readonly type: 'tool'; readonly name: string; readonly error: string | null; readonly result: unknown }>;
}

/** The final message of `turn`, from the items it completed (in order). */
export function finalMessageOf(turn: Turn, items: ReadonlyArray<ThreadItem>): FinalMessage {
  const messages = items.flatMap((item) => (item.type === 'agentMessage' ? [item.text] : []));
  return {
    role: 'assistant',
    content: messages[messages.length - 1] ?? '',
    error: turn.error?.message ?? null,
    blocks: items.flatMap((item) =>
      item.type === 'mcpToolCall' ? [{ type: 'tool' as const, name: `${item.server}.${item.tool}`, error: item.error?.message ?? null, result: item.result }] : [],
    ),
  };
}
