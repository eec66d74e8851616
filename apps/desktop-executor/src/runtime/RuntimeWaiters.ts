/**
 * Carries out `@wework/host-protocol`'s waiting rule (`decideRuntimeWait`) for the executor's supervised
 * app-server: a request that needs Codex while it is `restarting` or `starting` waits for `ready` — woken
 * by every change of `runtime/status`, its deadline armed through the timers port — and then runs; `failed`,
 * `stopped`, the bound passing and a full set of waiting requests answer a {@link RuntimeFault} at once.
 *
 * The app-server's own state is read the way a request would meet it: a status that still says `ready`
 * while no process is there to take the request (a planned restart ends the old process before the state
 * changes; a connection that closed is ended before its crash is told) counts as `starting`.
 *
 * `WEWORK_EXECUTOR_RUNTIME_WAIT_MS`, a whole number of milliseconds from 0 to 600,000, sets the longest
 * wait (default 30 s; 0 answers at once as before); any other value is refused.
 */
import * as E from 'fp-ts/lib/Either.js';
import { decideRuntimeWait, DEFAULT_RUNTIME_WAIT, type RuntimeState, type RuntimeWaitConfig, type RuntimeWaitDecision } from '@wework/host-protocol';
import type { Log, Timers } from '@wework/ports';
import type { RuntimeFault } from '@wework/host-errors';
import type { LocalRuntime } from './LocalRuntime.js';
import type { RuntimeStatus } from '@wework/app-server-client/node';
import { unavailable, type RuntimeSupervisor } from './RuntimeSupervisor.js';

/** The environment variable that sets the longest wait for a restarting app-server. */
export const RUNTIME_WAIT_ENV = 'WEWORK_EXECUTOR_RUNTIME_WAIT_MS';

/** The longest wait the variable may ask for: 10 minutes. */
export const MAX_RUNTIME_WAIT_MS = 600_000;

/** The waiting rule's numbers as the environment sets them, or a sentence saying why the value is refused (never echoing it). */
export function runtimeWaitFromEnv(env: Readonly<Record<string, string | undefined>>, defaults: RuntimeWaitConfig = DEFAULT_RUNTIME_WAIT): E.Either<string, RuntimeWaitConfig> {
  const raw = env[RUNTIME_WAIT_ENV];
  if (raw === undefined || raw === '') return E.right(defaults);
  const ms = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(ms) || ms > MAX_RUNTIME_WAIT_MS) return E.left(`${RUNTIME_WAIT_ENV} must be a whole number of milliseconds from 0 to ${MAX_RUNTIME_WAIT_MS}`);
  return E.right({ ...defaults, maxWaitMs: ms });
}

/** Requests that need Codex, waiting for it. */
export interface RuntimeWaiters {
  /**
   * The running runtime, at once or after waiting for it within the bound; else why not. `gone`, a
   * runtime a request already found ended (its end not told yet), counts as not ready: the wait goes on
   * until another one is.
   */
  ready(gone?: LocalRuntime): Promise<E.Either<RuntimeFault, LocalRuntime>>;
  /** How many requests wait now. */
  waiting(): number;
  /** The numbers of the rule. */
  readonly config: RuntimeWaitConfig;
}

/** What the waiters need of the supervisor. */
export type WaitedRuntime = Pick<RuntimeSupervisor, 'ready' | 'status' | 'onStatus'>;

/** The state a request meets: `ready` only while a process is there to take it. */
const stateMet = (status: RuntimeStatus, running: boolean): RuntimeState => (running ? 'ready' : status.state === 'ready' ? 'starting' : status.state);

/** The runtime error of a refusal. */
function refusalError(decision: Extract<RuntimeWaitDecision, { _tag: 'Refuse' }>, status: RuntimeStatus): RuntimeFault {
  const { refusal } = decision;
  switch (refusal._tag) {
    case 'RuntimeFailed':
    case 'RuntimeStopped':
      return unavailable(status);
    case 'RuntimeWaitTimedOut':
      return { _tag: 'RuntimeUnavailable', reason: `it did not become ready within ${refusal.waitedMs} ms (it is ${status.state}${status.reason === null ? '' : `: ${status.reason}`}); send it again once runtime/status says ready`, retryable: true };
    case 'TooManyWaiting':
      return { _tag: 'TooManyWaiting', limit: refusal.limit };
  }
}

/** The waiters over `runtime`, their deadlines armed with `timers`. */
export function runtimeWaiters(options: { readonly runtime: WaitedRuntime; readonly timers: Timers; readonly config?: RuntimeWaitConfig; readonly log?: Log }): RuntimeWaiters {
  const { runtime, timers } = options;
  const config = options.config ?? DEFAULT_RUNTIME_WAIT;
  let waiting = 0;

  /** Resolves at the next change of state, or at `deadline`. */
  const nextChange = async (deadline: number): Promise<void> => {
    const abort = new AbortController();
    const subscription = runtime.onStatus(() => abort.abort());
    try {
      await timers.sleep(Math.max(0, deadline - timers.now()), abort.signal);
    } finally {
      subscription.dispose();
    }
  };

  const ready = async (gone?: LocalRuntime): Promise<E.Either<RuntimeFault, LocalRuntime>> => {
    let waitingSince: number | null = null;
    let deadline: number | null = null;
    try {
      for (;;) {
        const found = runtime.ready();
        const running = E.isRight(found) && found.right === gone ? E.left(unavailable(runtime.status())) : found;
        const status = runtime.status();
        const now = timers.now();
        const decision = decideRuntimeWait(config, { state: stateMet(status, E.isRight(running)), retryInMs: status.retryInMs, now, waitingSince, deadline, waiting });
        if (decision._tag === 'Run') {
          // Ready is decided only with a process there (`stateMet`), so `running` is that process.
          if (waitingSince !== null) options.log?.({ event: 'request waited for the app-server', fields: { waitedMs: Math.round(now - waitingSince), outcome: 'ready' } });
          return running;
        }
        if (decision._tag === 'Refuse') {
          const error = refusalError(decision, status);
          options.log?.({ event: 'request refused while the app-server is not ready', fields: { waitedMs: waitingSince === null ? 0 : Math.round(now - waitingSince), refusal: decision.refusal._tag, state: status.state } });
          return E.left(error);
        }
        if (waitingSince === null) {
          waitingSince = now;
          waiting += 1;
        }
        deadline = decision.deadline;
        await nextChange(deadline);
      }
    } finally {
      if (waitingSince !== null) waiting -= 1;
    }
  };

  return { ready, waiting: () => waiting, config };
}
