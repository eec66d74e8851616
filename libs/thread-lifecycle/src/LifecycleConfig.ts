/**
 * The two numbers of the thread lifecycle: how long an idle thread keeps its app-server subscription,
 * and how many idle threads one app-server keeps.
 *
 * Every function here is pure: options in, a validated configuration or a `_tag`ged error out.
 */
import * as E from 'fp-ts/lib/Either.js';

/** Thirty minutes: an idle thread is unsubscribed after this long without activity. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** Four: the most idle threads one app-server keeps subscribed. */
export const DEFAULT_MAX_IDLE_THREADS = 4;

declare const validated: unique symbol;

/**
 * A validated configuration; only {@link lifecycleConfig} and {@link DEFAULT_LIFECYCLE_CONFIG} make one.
 */
export interface LifecycleConfig {
  /** Milliseconds without activity after which an idle thread is unsubscribed (positive, finite). */
  readonly idleTimeoutMs: number;
  /** The most idle threads kept subscribed; the oldest is released when one more becomes idle. */
  readonly maxIdleThreads: number;
  readonly [validated]: true;
}

/** What a host may set; anything left out takes its default. */
export interface LifecycleOptions {
  /** Default {@link DEFAULT_IDLE_TIMEOUT_MS}. */
  readonly idleTimeoutMs?: number;
  /** Default {@link DEFAULT_MAX_IDLE_THREADS}; `0` releases every thread as soon as its turn ends. */
  readonly maxIdleThreads?: number;
}

/** An option that is not a usable number. */
export interface InvalidLifecycleConfig {
  readonly _tag: 'InvalidLifecycleConfig';
  readonly field: keyof LifecycleOptions;
  readonly value: unknown;
  readonly message: string;
}

/** Builds an {@link InvalidLifecycleConfig}. */
export const invalidLifecycleConfig = (field: keyof LifecycleOptions, value: unknown, expected: string): InvalidLifecycleConfig => ({
  _tag: 'InvalidLifecycleConfig',
  field,
  value,
  message: `${field} must be ${expected}`,
});

/**
 * Validates options (they may come from untrusted settings) into a {@link LifecycleConfig}.
 * `idleTimeoutMs` must be a positive finite number, `maxIdleThreads` a non-negative safe integer.
 * @example
 * lifecycleConfig({ idleTimeoutMs: 60_000 }); // Right({ idleTimeoutMs: 60000, maxIdleThreads: 4 })
 * lifecycleConfig({ maxIdleThreads: -1 });    // Left({ _tag: 'InvalidLifecycleConfig', field: 'maxIdleThreads', ... })
 */
export function lifecycleConfig(options: LifecycleOptions = {}): E.Either<InvalidLifecycleConfig, LifecycleConfig> {
  const idleTimeoutMs: unknown = options.idleTimeoutMs === undefined ? DEFAULT_IDLE_TIMEOUT_MS : options.idleTimeoutMs;
  const maxIdleThreads: unknown = options.maxIdleThreads === undefined ? DEFAULT_MAX_IDLE_THREADS : options.maxIdleThreads;
  if (typeof idleTimeoutMs !== 'number' || !Number.isFinite(idleTimeoutMs) || idleTimeoutMs <= 0) {
    return E.left(invalidLifecycleConfig('idleTimeoutMs', idleTimeoutMs, 'a positive finite number of milliseconds'));
  }
  if (typeof maxIdleThreads !== 'number' || !Number.isSafeInteger(maxIdleThreads) || maxIdleThreads < 0) {
    return E.left(invalidLifecycleConfig('maxIdleThreads', maxIdleThreads, 'a non-negative integer'));
  }
  return E.right({ idleTimeoutMs, maxIdleThreads } as LifecycleConfig);
}

/** Thirty minutes, four idle threads: the spec's numbers. */
export const DEFAULT_LIFECYCLE_CONFIG: LifecycleConfig = {
  idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
  maxIdleThreads: DEFAULT_MAX_IDLE_THREADS,
} as LifecycleConfig;
