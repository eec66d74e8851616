/**
 * What the executor asks of its host (the Wework chat UI, or a test's scripted user): show a card built
 * from a plugin form, a Codex input request or an approval, and come back with the host's answer. The host
 * only sends and receives: whether the answer fits, and whether the card is shown again, is decided by the
 * card router with the checked answer of the card's library (`nextCardShow` of `@wework/elicitation-mapper`).
 */
import type { HostCard } from '@wework/host-protocol';

/**
 * The host side of the executor. `showCard` shows the card once and resolves with the host's answer as it
 * came (to be decoded and checked), or `{ action: "cancel" }` when no host answered (none connected, or
 * none came back in time). When `signal` aborts (the task was stopped, or Codex settled the request
 * elsewhere) the host should dismiss the card; the executor has already answered the request with cancel.
 */
export interface ExecutorHost {
  showCard(card: HostCard, signal: AbortSignal): Promise<unknown>;
}
