/**
 * The executor's cards: every server request that needs the user goes to the host through one router.
 */
import type { AnyServerRequest } from '@wework/codex-protocol';
import type { AppServerClient } from '@wework/app-server-client';
import type { Log } from '@wework/ports';
import { approvalAdapters } from './ApprovalAdapters.js';
import { attachCardRouter, type CardAdapter, type CardRouter } from './CardRouter.js';
import type { ExecutorHost } from './ExecutorHost.js';
import { elicitationAdapter, userInputAdapter } from './FormsAdapters.js';

export type { CardRouter } from './CardRouter.js';
export type { ExecutorHost } from './ExecutorHost.js';

/** Every adapter the executor routes: plugin forms, Codex input requests, and approvals. */
export const executorCardAdapters: ReadonlyArray<CardAdapter<AnyServerRequest>> = [elicitationAdapter, userInputAdapter, ...approvalAdapters] as ReadonlyArray<
  CardAdapter<AnyServerRequest>
>;

/** Attaches every adapter: from now on the host answers the app-server's cards. */
export function attachExecutorCards(client: AppServerClient, host: ExecutorHost, log: Log): CardRouter {
  return attachCardRouter(client, host, log, executorCardAdapters);
}
