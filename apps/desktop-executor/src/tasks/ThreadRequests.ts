/**
 * The app-server requests that carry out the thread lifecycle's `Unsubscribe` and `ArchiveThread`, with
 * their log lines. Whatever Codex answers, the command is done: the caller reports the answer of an
 * unsubscribe (`Unsubscribed`), and an archive that failed is only told.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ThreadArchive, ThreadUnsubscribe } from '@wework/codex-protocol';
import { describeClientError, type AppServerClient } from '@wework/app-server-client';
import type { ArchiveThread, Unsubscribe } from '@wework/thread-lifecycle';
import type { Log } from '@wework/ports';

/** `thread/unsubscribe`, logged with its reason and the answer's status. */
export async function unsubscribeThread(client: AppServerClient, command: Unsubscribe, log: Log): Promise<void> {
  const { threadId, reason } = command;
  const reply = await client.request(ThreadUnsubscribe, { threadId });
  log({ event: 'thread unsubscribed', fields: { threadId, reason: reason === 'unused' ? 'archive (no turn yet)' : reason, status: E.isRight(reply) ? reply.right.status : describeClientError(reply.left) } });
}

/** `thread/archive`, logged after an unsubscribe; for a thread released before (its only request) only a failure is logged. */
export async function archiveThread(client: AppServerClient, command: ArchiveThread, log: Log): Promise<void> {
  const { threadId } = command;
  const archived = await client.request(ThreadArchive, { threadId });
  if (!command.releasedBefore) log({ event: 'thread archived', fields: { threadId, ...(E.isLeft(archived) ? { error: describeClientError(archived.left) } : {}) } });
  else if (E.isLeft(archived)) log({ event: 'thread archive failed', fields: { threadId, error: describeClientError(archived.left) } });
}
