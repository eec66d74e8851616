/**
 * The Wegent runtime token of this executor, held in memory only: `runtime/setWegentToken` replaces it,
 * `runtime/clearWegentToken` drops it, the task threads carry it to Codex as a per-thread config override (`shell_environment_policy.set`,
 * never written to config.toml: see {@link ThreadEnvironment}), and one timer sends
 * `runtime/wegentTokenExpiring` at the notice time of `@wework/host-protocol` (80 % of the lifetime or a
 * minute before the expiry, whichever is first). The clock and the timer are ports, so tests move time.
 * Nothing here logs or returns the token.
 */
import type { JsonValue } from '@wework/codex-protocol';
import { expiringNotice, wegentTokenSchedule, WEGENT_RUNTIME_TOKEN_ENV, type WegentTokenSchedule } from '@wework/host-protocol';
import type { Clock, Log, Timer } from '@wework/ports';

/**
 * The per-thread environment overrides of the task threads, and their version: a thread loaded with an
 * older version than the current one is reloaded before its next turn.
 */
export interface ThreadEnvironment {
  /** The version of the overrides: 0 before any token, one more with every token. */
  version(): number;
  /** The config overrides every `thread/start`, `thread/resume` and `thread/fork` of a task carries. */
  overrides(): { readonly [key: string]: JsonValue };
}

/** The runtime token service. */
export interface WegentRuntimeToken extends ThreadEnvironment {
  /** Takes a new token valid for `expiresIn` seconds (it replaces the previous one) and arms the notice. */
  set(token: string, expiresIn: number): WegentTokenSchedule;
  /** Drops the token and its notice; the next turn of each task runs without it. Answers whether there was one. */
  clear(): boolean;
  /** Disarms the timer. */
  dispose(): void;
}

/** Options of {@link wegentRuntimeToken}. */
export interface WegentRuntimeTokenOptions {
  readonly clock: Clock;
  /** The token's own timer (one timer per user: arming it again replaces its deadline). */
  readonly timer: Timer;
  /** Sends `runtime/wegentTokenExpiring` to the hosts (through the event stream). */
  readonly notify: (params: { readonly expiresAt: number; readonly expiresIn: number }) => void;
  readonly log: Log;
}

/** The config override key under which Codex adds a variable to the environment of the commands it runs. */
const overrideKey = `shell_environment_policy.set.${WEGENT_RUNTIME_TOKEN_ENV}`;

/**
 * The token service, with no token yet.
 * @example
 * const token = wegentRuntimeToken({ clock, timer, notify: (p) => sessions.broadcast('runtime/wegentTokenExpiring', p), log });
 * token.set('eyJ...', 3600); // { receivedAt, refreshAt: receivedAt + 2_880_000, expiresAt: receivedAt + 3_600_000 }
 */
export function wegentRuntimeToken(options: WegentRuntimeTokenOptions): WegentRuntimeToken {
  const { clock, timer, notify, log } = options;
  let current: { readonly token: string; readonly schedule: WegentTokenSchedule } | null = null;
  let version = 0;

  /** Fires the notice when it is due; a timer that fired early (a very long delay) is armed again. */
  const arm = (schedule: WegentTokenSchedule): void => {
    timer.set(schedule.refreshAt, () => {
      if (current?.schedule !== schedule) return;
      const now = clock.now();
      if (now < schedule.refreshAt) return arm(schedule);
      const notice = expiringNotice(schedule, now);
      log({ event: 'wegent runtime token expiring', fields: { version, expiresIn: notice.expiresIn } });
      notify(notice);
    });
  };

  return {
    set: (token, expiresIn) => {
      const schedule = wegentTokenSchedule(clock.now(), expiresIn);
      current = { token, schedule };
      version += 1;
      log({ event: 'wegent runtime token set', fields: { version, expiresIn, refreshInMs: schedule.refreshAt - schedule.receivedAt } });
      arm(schedule);
      return schedule;
    },
    clear: () => {
      if (current === null) return false;
      current = null;
      version += 1;
      timer.clear();
      log({ event: 'wegent runtime token cleared', fields: { version } });
      return true;
    },
    version: () => version,
    overrides: () => (current === null ? {} : { [overrideKey]: current.token }),
    dispose: () => timer.clear(),
  };
}
