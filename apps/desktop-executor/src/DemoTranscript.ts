/**
 * The demo's transcript: turns the app-server's turn notifications into readable lines, one per event worth a
 * person's attention.
 *
 * Every function here is pure.
 */
import type { ThreadItem, Turn } from '@wework/codex-protocol';

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content.flatMap((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? [part.text] : [])).join(' ')
    : '';

/** The line for the user's message. */
export function userLine(text: string): string {
  return `› you: ${text}`;
}

/** The transcript line of a completed item, or undefined for items not shown. */
export function itemLine(item: ThreadItem): string | undefined {
  switch (item.type) {
    case 'agentMessage':
      return `‹ codex: ${item.text}`;
    case 'mcpToolCall': {
      const outcome = item.error !== null ? `✗ ${item.error.message}` : textOf(item.result?.content);
      return `  ⚙ ${item.server}.${item.tool} ${JSON.stringify(item.arguments)} → ${outcome}`;
    }
    case 'commandExecution':
      return `  $ ${item.command} (${item.status})`;
    default:
      return undefined;
  }
}

/** The closing line of a turn. */
export function turnLine(turn: Turn): string {
  const took = turn.durationMs === null ? '' : ` in ${turn.durationMs} ms`;
  const mark = turn.status === 'completed' ? '✓' : '✗';
  const error = turn.error === null ? '' : `: ${turn.error.message}`;
  return `${mark} turn ${turn.status}${took}${error}`;
}
