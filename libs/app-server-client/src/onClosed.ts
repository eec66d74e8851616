/**
 * A subscription to the end of a client that can be dropped. A wait that reacts to the client's end
 * through `client.closed.then(...)` stays attached to that promise until the client ends, and with it
 * everything the reaction can reach (a finished turn's items, for one); on a client that serves many
 * waits that grows without bound. This one is undone when the wait is over.
 */
import type { AppServerClient } from './AppServerClient.js';
import type { TerminalError } from './ClientError.js';
import type { Disposable } from './internal/ListenerSet.js';

const TERMINAL_TAGS: ReadonlySet<string> = new Set<TerminalError['_tag']>(['ConnectionClosed', 'ProcessExited', 'Disposed']);

/**
 * Calls `listener` once with the reason the client ended. On a client still open it runs as the client
 * ends, in the same step that rejects its pending requests and before `client.closed` resolves; on a
 * client that has already ended, on a later microtask. Disposing the result before then means `listener`
 * is never called and nothing of it stays referenced by the client. A listener that throws is ignored,
 * as the client's event listeners are. Use it instead of `client.closed.then(...)` for a wait that ends
 * before the client does.
 *
 * @example
 * ```ts
 * import { onClosed } from '@wework/app-server-client';
 *
 * const ended = onClosed(client, (error) => console.log('the client ended:', error._tag));
 * // ... the operation is over before the client ends:
 * ended.dispose();
 * ```
 */
export function onClosed(client: Pick<AppServerClient, 'terminalError' | 'onEvent'>, listener: (error: TerminalError) => void): Disposable {
  let live = true;
  const deliver = (error: TerminalError): void => {
    if (!live) return;
    live = false;
    try {
      listener(error);
    } catch {
      // Ignored, as a throwing event listener of the client is.
    }
  };
  const ended = client.terminalError;
  if (ended !== undefined) {
    void Promise.resolve().then(() => deliver(ended));
    return { dispose: () => void (live = false) };
  }
  const subscription = client.onEvent((event) => {
    const terminal = client.terminalError;
    if (!TERMINAL_TAGS.has(event._tag) || terminal === undefined) return;
    subscription.dispose();
    deliver(terminal);
  });
  return {
    dispose: () => {
      live = false;
      subscription.dispose();
    },
  };
}
