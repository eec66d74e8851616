/**
 * What a connection is busy with, seen from the wire: requests we sent that have no reply yet, server
 * requests we have not answered, and turns that started and did not complete. A host asks it before
 * doing something that must not overlap live work, such as switching the account the app-server runs as.
 * Work that cannot finish any more stops counting: a request the client gave up on (its timeout
 * elapsed: a `RequestAbandoned` event) and everything of a connection that has ended.
 */
import type { AppServerClient } from './AppServerClient.js';
import type { MessageDirection } from './ClientContract.js';
import { onClosed } from './onClosed.js';
import type { JsonRpcId, JsonRpcMessage } from '@wework/jsonrpc';

/** The live work on a connection at one moment; every list is in the order the work began. */
export interface ConnectionActivity {
  /** Methods of our requests still waiting for their reply. */
  readonly requestsInFlight: ReadonlyArray<string>;
  /** Methods of server requests (approvals, forms, …) we have not answered yet. */
  readonly serverRequestsPending: ReadonlyArray<string>;
  /** `threadId` and `turnId` of every turn started and not completed. */
  readonly activeTurns: ReadonlyArray<{ readonly threadId: string; readonly turnId: string }>;
}

/** Watches one connection's activity; see {@link trackActivity}. */
export interface ActivityTracker {
  /** The activity now. */
  current(): ConnectionActivity;
  /** Whether nothing is in flight, pending or running. */
  isIdle(): boolean;
  /** Stops watching. */
  dispose(): void;
}

/** Whether the activity has no live work. */
export const isIdleActivity = (activity: ConnectionActivity): boolean =>
  activity.requestsInFlight.length === 0 && activity.serverRequestsPending.length === 0 && activity.activeTurns.length === 0;

const idKey = (id: JsonRpcId): string => `${typeof id}:${String(id)}`;

/**
 * Starts tracking a client's activity from its wire tap (`onMessage`) — so it sees every message,
 * whoever sent it — and its `turn/started` / `turn/completed` notifications. Attach it right after
 * creating the client: work begun before it was attached is not seen. Abandoned requests and, once
 * the client has ended, all of its work are forgotten.
 *
 * @example
 * const activity = trackActivity(server.client);
 * if (!activity.isIdle()) console.log('busy:', activity.current());
 */
export function trackActivity(client: AppServerClient): ActivityTracker {
  const sent = new Map<string, string>();
  const received = new Map<string, string>();
  const turns = new Map<string, { readonly threadId: string; readonly turnId: string }>();

  const onMessage = (direction: MessageDirection, message: JsonRpcMessage): void => {
    if ('method' in message) {
      if ('id' in message) (direction === 'outgoing' ? sent : received).set(idKey(message.id), message.method);
      else if (direction === 'incoming') onNotification(message.method, message.params);
      return;
    }
    if (message.id === null) return;
    (direction === 'incoming' ? sent : received).delete(idKey(message.id));
  };

  const onNotification = (method: string, params: unknown): void => {
    if (method !== 'turn/started' && method !== 'turn/completed') return;
    const turn = turnOf(params);
    if (turn === undefined) return;
    if (method === 'turn/started') turns.set(turn.turnId, turn);
    else turns.delete(turn.turnId);
  };

  const tap = client.onMessage(onMessage);
  const abandoned = client.onEvent((event) => {
    if (event._tag === 'RequestAbandoned') sent.delete(idKey(event.id));
  });
  // Nothing that died with the connection keeps anyone busy. A subscription, not `client.closed.then`:
  // a disposed tracker leaves nothing of itself attached to a client that lives on.
  const ended = onClosed(client, () => {
    sent.clear();
    received.clear();
    turns.clear();
  });
  const current = (): ConnectionActivity => ({
    requestsInFlight: [...sent.values()],
    serverRequestsPending: [...received.values()],
    activeTurns: [...turns.values()],
  });
  return {
    current,
    isIdle: () => isIdleActivity(current()),
    dispose: () => {
      tap.dispose();
      abandoned.dispose();
      ended.dispose();
    },
  };
}

/** `threadId` and `turn.id` of a turn notification's params, when present. */
function turnOf(params: unknown): { readonly threadId: string; readonly turnId: string } | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { threadId, turn } = params as { threadId?: unknown; turn?: unknown };
  if (typeof threadId !== 'string' || typeof turn !== 'object' || turn === null) return undefined;
  const turnId = (turn as { id?: unknown }).id;
  return typeof turnId === 'string' ? { threadId, turnId } : undefined;
}
