/**
 * When a supervised app-server is started again: the restart, backoff and crash-loop policy as a state
 * machine. Each unexpected end (a ready process exited, or a start attempt failed) is a crash; crashes
 * older than the window are forgotten. A crash schedules a restart after a backoff that doubles with
 * every crash still in the window (from `initialDelayMs` up to `maxDelayMs`); the `crashLoopLimit`-th
 * crash within the window gives up (`Failed`) until someone asks for a restart. A planned restart (an
 * account switch, a reload) or a retry after `Failed` starts at once and is no crash.
 *
 * Every function is pure: a state and an event in, the next state and one command out. Time is the
 * `at` of each event, in milliseconds.
 */

/** The numbers of the policy. */
export interface RestartPolicyConfig {
  /** Backoff before the restart after the first crash in the window. */
  readonly initialDelayMs: number;
  /** The longest backoff. */
  readonly maxDelayMs: number;
  /** How many crashes within `crashLoopWindowMs` make a crash loop (then `Failed`). */
  readonly crashLoopLimit: number;
  /** How long a crash counts towards the crash loop. */
  readonly crashLoopWindowMs: number;
}

/** The documented defaults: 500 ms doubling to 8 s; 5 crashes within 60 s are a crash loop. */
export const DEFAULT_RESTART_POLICY: RestartPolicyConfig = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  crashLoopLimit: 5,
  crashLoopWindowMs: 60_000,
};

/** Why a process ended or could not be started; plain data, never secrets. */
export type CrashReason =
  | { readonly _tag: 'Exited'; readonly code: number | null; readonly signal: string | null }
  | { readonly _tag: 'StartFailed'; readonly error: string };

/** Where the supervised process is. `crashes` are the times of the crashes still in the window, oldest first. */
export type SupervisorState =
  | { readonly _tag: 'Starting'; readonly crashes: ReadonlyArray<number> }
  | { readonly _tag: 'Ready'; readonly crashes: ReadonlyArray<number> }
  | { readonly _tag: 'Restarting'; readonly crashes: ReadonlyArray<number>; readonly reason: CrashReason; readonly delayMs: number }
  | { readonly _tag: 'Failed'; readonly crashes: ReadonlyArray<number>; readonly reason: CrashReason }
  | { readonly _tag: 'Stopped' };

/** What happened to the supervised process. */
export type SupervisorEvent =
  /** A process was started and initialized. */
  | { readonly _tag: 'Started'; readonly at: number }
  /** The ready process ended without being asked to. */
  | { readonly _tag: 'Crashed'; readonly at: number; readonly reason: CrashReason }
  /** A start attempt (after a crash, a planned restart or the first start) failed. */
  | { readonly _tag: 'StartFailed'; readonly at: number; readonly reason: CrashReason }
  /** A planned restart, or a retry after `Failed`: start again now. */
  | { readonly _tag: 'RestartRequested'; readonly at: number }
  /** The supervisor is disposed. */
  | { readonly _tag: 'Stop' };

/** What the supervisor must do next. */
export type SupervisorCommand =
  | { readonly _tag: 'StartAfter'; readonly delayMs: number }
  | { readonly _tag: 'GiveUp' }
  | { readonly _tag: 'Nothing' };

/** The next state and command. */
export interface SupervisorStep {
  readonly state: SupervisorState;
  readonly command: SupervisorCommand;
}

/** The state of a supervisor whose first process is being started. */
export const initialSupervisorState: SupervisorState = { _tag: 'Starting', crashes: [] };

const nothing: SupervisorCommand = { _tag: 'Nothing' };

/** The backoff before the restart that follows the `crashCount`-th crash in the window (1-based). */
export function backoffDelay(config: RestartPolicyConfig, crashCount: number): number {
  const exponent = Math.max(0, Math.min(crashCount - 1, 30));
  return Math.min(config.maxDelayMs, config.initialDelayMs * 2 ** exponent);
}

const within = (config: RestartPolicyConfig, crashes: ReadonlyArray<number>, at: number): number[] =>
  crashes.filter((time) => at - time < config.crashLoopWindowMs);

const crashed = (config: RestartPolicyConfig, state: Exclude<SupervisorState, { _tag: 'Stopped' }>, at: number, reason: CrashReason): SupervisorStep => {
  const crashes = [...within(config, state.crashes, at), at];
  if (crashes.length >= config.crashLoopLimit) return { state: { _tag: 'Failed', crashes, reason }, command: { _tag: 'GiveUp' } };
  const delayMs = backoffDelay(config, crashes.length);
  return { state: { _tag: 'Restarting', crashes, reason, delayMs }, command: { _tag: 'StartAfter', delayMs } };
};

/**
 * One step of the policy.
 *
 * @example
 * ```ts
 * import { DEFAULT_RESTART_POLICY, initialSupervisorState, stepSupervisor } from '@wework/app-server-client';
 * const ready = stepSupervisor(DEFAULT_RESTART_POLICY, initialSupervisorState, { _tag: 'Started', at: 0 }).state;
 * const next = stepSupervisor(DEFAULT_RESTART_POLICY, ready, { _tag: 'Crashed', at: 10, reason: { _tag: 'Exited', code: null, signal: 'SIGKILL' } });
 * next.command; // { _tag: 'StartAfter', delayMs: 500 }
 * ```
 */
export function stepSupervisor(config: RestartPolicyConfig, state: SupervisorState, event: SupervisorEvent): SupervisorStep {
  if (state._tag === 'Stopped') return { state, command: nothing };
  switch (event._tag) {
    case 'Stop':
      return { state: { _tag: 'Stopped' }, command: nothing };
    case 'Started':
      // Only a start that was asked for can succeed; a report in any other state is stale.
      return state._tag === 'Starting' || state._tag === 'Restarting'
        ? { state: { _tag: 'Ready', crashes: within(config, state.crashes, event.at) }, command: nothing }
        : { state, command: nothing };
    case 'Crashed':
      // Only a ready process can crash; an end reported in any other state is stale.
      return state._tag === 'Ready' ? crashed(config, state, event.at, event.reason) : { state, command: nothing };
    case 'StartFailed':
      return state._tag === 'Starting' || state._tag === 'Restarting' ? crashed(config, state, event.at, event.reason) : { state, command: nothing };
    case 'RestartRequested':
      // A failed supervisor forgets its crash loop: someone asked to try again.
      return {
        state: { _tag: 'Starting', crashes: state._tag === 'Failed' ? [] : within(config, state.crashes, event.at) },
        command: { _tag: 'StartAfter', delayMs: 0 },
      };
  }
}
