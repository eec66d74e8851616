/**
 * The replay buffer's size as the executor's environment sets it: `WEWORK_EXECUTOR_EVENT_BUFFER`, a whole
 * number of events from 1 to 1,024, keeps at most that many notifications for `events/subscribe` (tests
 * use a small one to reach a reset). Unset, the default bounds (`EVENT_LOG_MAX_EVENTS` notifications,
 * `EVENT_LOG_MAX_CHARS` characters); any other value is refused, so a typo never silently changes them.
 */
import * as E from 'fp-ts/lib/Either.js';
import { EVENT_LOG_MAX_CHARS, EVENT_LOG_MAX_EVENTS, type EventLogBounds } from '@wework/host-protocol';

/** The environment variable that shrinks the replay buffer. */
export const EVENT_BUFFER_ENV = 'WEWORK_EXECUTOR_EVENT_BUFFER';

/** The replay buffer's bounds the environment asks for, or a sentence saying why the value is refused (never echoing it). */
export function eventBufferFromEnv(env: Readonly<Record<string, string | undefined>>): E.Either<string, EventLogBounds> {
  const raw = env[EVENT_BUFFER_ENV];
  if (raw === undefined || raw === '') return E.right({ maxEvents: EVENT_LOG_MAX_EVENTS, maxChars: EVENT_LOG_MAX_CHARS });
  const events = /^[0-9]{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(events) || events < 1 || events > EVENT_LOG_MAX_EVENTS) {
    return E.left(`${EVENT_BUFFER_ENV} must be a whole number of events from 1 to ${EVENT_LOG_MAX_EVENTS}`);
  }
  return E.right({ maxEvents: events, maxChars: EVENT_LOG_MAX_CHARS });
}
