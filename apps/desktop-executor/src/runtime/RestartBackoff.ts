/**
 * The app-server's restart backoff as the executor's environment sets it: `WEWORK_EXECUTOR_RESTART_BACKOFF_MS`,
 * a whole number of milliseconds from 1 to 600,000, makes every restart wait that long (a constant
 * backoff, the crash-loop limit unchanged) instead of the default 500 ms doubling to 8 s. Unset, the
 * default policy; any other value is refused, so a typo never silently changes the policy.
 */
import * as E from 'fp-ts/lib/Either.js';
import { DEFAULT_RESTART_POLICY, type RestartPolicyConfig } from '@wework/app-server-client';

/** The environment variable that sets a constant restart backoff. */
export const RESTART_BACKOFF_ENV = 'WEWORK_EXECUTOR_RESTART_BACKOFF_MS';

/** The longest backoff the variable may ask for: 10 minutes. */
export const MAX_RESTART_BACKOFF_MS = 600_000;

/** The restart policy the environment asks for, or a sentence saying why the value is refused (never echoing it). */
export function restartPolicyFromEnv(env: Readonly<Record<string, string | undefined>>): E.Either<string, RestartPolicyConfig> {
  const raw = env[RESTART_BACKOFF_ENV];
  if (raw === undefined || raw === '') return E.right(DEFAULT_RESTART_POLICY);
  const ms = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_RESTART_BACKOFF_MS) {
    return E.left(`${RESTART_BACKOFF_ENV} must be a whole number of milliseconds from 1 to ${MAX_RESTART_BACKOFF_MS}`);
  }
  return E.right({ ...DEFAULT_RESTART_POLICY, initialDelayMs: ms, maxDelayMs: ms });
}
