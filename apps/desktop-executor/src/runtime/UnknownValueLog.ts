/**
 * Logs what Codex sends that this version of the protocol does not know: an enum literal or a
 * union variant of a newer Codex, which the client decoded as a typed unknown case and delivered
 * (see `UnknownProtocolValues` of `@wework/app-server-client`). Each is logged once per
 * (method, literal), as the event `codex unknown protocol value` with the literal's kind, path
 * and codec, never a value of the message. The literal arrives in its loggable form already.
 * At most {@link MAX_LOGGED_UNKNOWN_VALUES} are logged per connection; past that, one entry says so.
 */
import type { AppServerClient, Disposable } from '@wework/app-server-client';
import type { Log } from '@wework/ports';

/** How many distinct (method, literal) pairs are logged per connection. */
export const MAX_LOGGED_UNKNOWN_VALUES = 256;

/**
 * Subscribes to `client`'s events and logs each unknown literal once per (method, literal).
 * @example
 * ```ts
 * const subscription = logUnknownProtocolValues(client, log);
 * // later: subscription.dispose();
 * ```
 */
export function logUnknownProtocolValues(client: Pick<AppServerClient, 'onEvent'>, log: Log): Disposable {
  const seen = new Set<string>();
  let saturated = false;
  return client.onEvent((event) => {
    if (event._tag !== 'UnknownProtocolValues') return;
    for (const part of event.parts) {
      const key = JSON.stringify([event.method, part.literal]);
      if (seen.has(key)) continue;
      if (seen.size >= MAX_LOGGED_UNKNOWN_VALUES) {
        if (!saturated) log({ event: 'codex unknown protocol values not logged any more', fields: { limit: MAX_LOGGED_UNKNOWN_VALUES } });
        saturated = true;
        return;
      }
      seen.add(key);
      log({
        event: 'codex unknown protocol value',
        fields: { method: event.method, side: event.side, kind: part.kind, path: part.path, codec: part.codec, literal: part.literal },
      });
    }
  });
}
