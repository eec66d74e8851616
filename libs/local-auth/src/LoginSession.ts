/**
 * Interactive login sessions: QR (`start` → QR payload for the UI → non-blocking `poll` until ok, error
 * or timeout) and browser OAuth (`preparing` → `waiting_browser` → `verifying` → `ok`/`error`).
 * Pure orchestration over the ports; time comes from {@link Timers}, processes from {@link BridgeRunner}.
 *
 * A session moves forward only: once it is `ok`, `error` or `cancelled`, nothing that arrives later
 * (a late bridge answer, a second success) changes it. Cancelling terminates the running login process
 * and resolves `done` after the process tree is gone. {@link LoginSessions} keeps at most one session per
 * connector and device and tells obsolete sessions apart by their generation.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Timers } from '@wework/ports';
import type { BridgeError } from './BridgeError.js';
import type { BridgeStatus } from './BridgeStatus.js';
import type { AuthTarget, HealthError } from './HealthCheck.js';
import { resolveTool, runHealth } from './HealthCheck.js';
import type { ToolError } from './ManagedTool.js';
import type { AuthLogger, BridgeRunner, ToolResolver } from './Ports.js';
import { POLL_TIMEOUT_MS } from './Ports.js';

/** The interactive login did not finish within its timeout; its process tree was terminated. */
export interface LoginTimedOut {
  readonly _tag: 'LoginTimedOut';
  readonly connector: string;
  readonly timeoutMs: number;
  readonly message: string;
}
/** The bridge reported that the login failed (or, for QR, that the code expired). */
export interface LoginRejected {
  readonly _tag: 'LoginRejected';
  readonly connector: string;
  readonly status: BridgeStatus['status'];
  /** The bridge's own `message`, if it gave one (it passed the credential check). */
  readonly message: string;
}
/** The login flow finished but the health check still says logged out. */
export interface StillLoggedOut {
  readonly _tag: 'StillLoggedOut';
  readonly connector: string;
  readonly message: string;
}

/** Why a login session ended in `error`. */
export type LoginError = BridgeError | ToolError | HealthError | LoginTimedOut | LoginRejected | StillLoggedOut;

/** The states a session shows the UI. */
export type LoginState =
  | { readonly state: 'preparing' }
  /** QR: render `qr.payload`; a later poll may replace it with a fresh code. */
  | { readonly state: 'waiting_scan'; readonly qr: { readonly payload: string } }
  /** Browser OAuth: the login command runs and has opened the browser. */
  | { readonly state: 'waiting_browser' }
  /** Browser OAuth: the login command finished; the health command confirms the login. */
  | { readonly state: 'verifying' }
  | { readonly state: 'ok'; readonly account: string | undefined }
  | { readonly state: 'error'; readonly error: LoginError }
  | { readonly state: 'cancelled' };

/** A state in which a session has ended. */
export type LoginOutcome = Extract<LoginState, { readonly state: 'ok' | 'error' | 'cancelled' }>;

/** One running login. */
export interface LoginSession {
  /** Generation number, unique among the sessions of one {@link LoginSessions}. */
  readonly generation: number;
  readonly pluginKey: string;
  readonly connector: string;
  readonly type: 'local_qr' | 'browser_oauth';
  /** The current state. */
  current(): LoginState;
  /** Calls `listener` with every later state of this session; returns the unsubscribe function. */
  subscribe(listener: (state: LoginState) => void): () => void;
  /** Cancels the session (closing the UI): terminates the login process. Idempotent. */
  cancel(): void;
  /** The final state, once any running process has been terminated. Never rejects. */
  readonly done: Promise<LoginOutcome>;
}

/** What a session needs. */
export interface LoginDeps {
  readonly runner: BridgeRunner;
  readonly tools: ToolResolver;
  /** The clock and sleeps of the polling (only `now` and `sleep` are used). */
  readonly timers: Pick<Timers, 'now' | 'sleep'>;
  readonly log?: AuthLogger;
  /** Pause between QR polls; default 2000 ms. */
  readonly pollIntervalMs?: number;
  /** Timeout of one poll; default {@link POLL_TIMEOUT_MS}. */
  readonly pollTimeoutMs?: number;
  /** Timeout of the verifying health check; default 45 s. */
  readonly healthTimeoutMs?: number;
  /** Overrides the manifest's login timeout (for tests and hosts with their own limits). */
  readonly loginTimeoutMs?: number;
}

const isTerminal = (state: LoginState): state is LoginOutcome => state.state === 'ok' || state.state === 'error' || state.state === 'cancelled';

/**
 * Starts a login session for a connector; the flow follows the connector's `localAuth.type`.
 *
 * @example
 * ```ts
 * const session = startLoginSession({ runner, tools, timers }, { pluginKey, pluginRoot, connector });
 * session.subscribe((state) => ui.render(state)); // preparing → waiting_scan { qr } → ok
 * ui.onClose(() => session.cancel());
 * const outcome = await session.done;
 * ```
 */
export function startLoginSession(deps: LoginDeps, target: AuthTarget, generation = 0): LoginSession {
  const controller = new AbortController();
  const listeners = new Set<(state: LoginState) => void>();
  const slug = target.connector.slug;
  let state: LoginState = { state: 'preparing' };

  /** Moves the session on, unless it has already ended: late answers cannot change an ended session. */
  const move = (next: LoginState): boolean => {
    if (isTerminal(state)) return false;
    state = next;
    deps.log?.({ event: `login.${next.state}`, connector: slug, pluginKey: target.pluginKey, ...(next.state === 'error' ? { detail: next.error._tag } : {}) });
    for (const listener of [...listeners]) {
      // A listener may move the session on (cancel from the UI): later listeners then see only the newer state.
      if (state !== next) break;
      try {
        listener(next);
      } catch {
        // A failing listener must not stop the session.
      }
    }
    return true;
  };
  const fail = (error: LoginError): void => void move({ state: 'error', error });

  const localAuth = target.connector.localAuth;
  const loginTimeoutMs = deps.loginTimeoutMs ?? localAuth.loginTimeoutMs;
  const started = deps.timers.now();
  const remaining = (): number => loginTimeoutMs - (deps.timers.now() - started);
  const timedOut = (): LoginTimedOut => ({
    _tag: 'LoginTimedOut',
    connector: slug,
    timeoutMs: loginTimeoutMs,
    message: `The login of connector "${slug}" did not finish within ${loginTimeoutMs} ms.`,
  });
  const rejected = (status: BridgeStatus): LoginRejected => ({
    _tag: 'LoginRejected',
    connector: slug,
    status: status.status,
    message: status.message ?? `The login of connector "${slug}" ended with "${status.status}".`,
  });
  /** A bridge error during the login; a timeout of the login command is the login's timeout. */
  const bridgeFailure = (error: BridgeError): LoginError => (error._tag === 'BridgeTimedOut' && remaining() <= 0 ? timedOut() : error);

  const run = async (command: 'start' | 'poll', toolPath: string | undefined, timeoutMs: number, onSpawn?: () => void) =>
    deps.runner.run({
      connector: slug,
      command,
      pluginRoot: target.pluginRoot,
      argv: command === 'poll' && localAuth.type === 'local_qr' ? localAuth.poll : localAuth.start,
      timeoutMs: Math.max(1, timeoutMs),
      signal: controller.signal,
      ...(toolPath === undefined ? {} : { toolPath }),
      ...(onSpawn === undefined ? {} : { onSpawn }),
    });

  const verify = async (): Promise<void> => {
    if (!move({ state: 'verifying' })) return;
    const health = await runHealth({ runner: deps.runner, tools: deps.tools, ...(deps.healthTimeoutMs === undefined ? {} : { healthTimeoutMs: deps.healthTimeoutMs }) }, target, controller.signal);
    if (controller.signal.aborted) return;
    if (E.isLeft(health)) return fail(health.left);
    if (health.right.loggedIn) return void move({ state: 'ok', account: health.right.account });
    fail({ _tag: 'StillLoggedOut', connector: slug, message: `The login of connector "${slug}" finished, but its health check still reports no login.` });
  };

  const browserFlow = async (toolPath: string | undefined): Promise<void> => {
    const status = await run('start', toolPath, remaining(), () => void move({ state: 'waiting_browser' }));
    if (controller.signal.aborted) return;
    if (E.isLeft(status)) return fail(bridgeFailure(status.left));
    if (status.right.status !== 'ok') return fail(rejected(status.right));
    await verify();
  };

  const qrFlow = async (toolPath: string | undefined): Promise<void> => {
    const first = await run('start', toolPath, Math.min(remaining(), deps.pollTimeoutMs ?? POLL_TIMEOUT_MS));
    if (controller.signal.aborted) return;
    if (E.isLeft(first)) return fail(bridgeFailure(first.left));
    if (first.right.status === 'ok') return void move({ state: 'ok', account: first.right.account });
    if (first.right.status !== 'pending' || first.right.qr === undefined) return fail(rejected(first.right));
    let payload = first.right.qr.payload;
    if (!move({ state: 'waiting_scan', qr: { payload } })) return;
    for (;;) {
      await deps.timers.sleep(Math.max(0, Math.min(deps.pollIntervalMs ?? 2000, remaining())), controller.signal);
      if (controller.signal.aborted) return;
      if (remaining() <= 0) return fail(timedOut());
      const polled = await run('poll', toolPath, Math.min(remaining(), deps.pollTimeoutMs ?? POLL_TIMEOUT_MS));
      if (controller.signal.aborted) return;
      if (E.isLeft(polled)) return fail(bridgeFailure(polled.left));
      const answer = polled.right;
      if (answer.status === 'ok') return void move({ state: 'ok', account: answer.account });
      if (answer.status !== 'pending') return fail(rejected(answer));
      if (answer.qr !== undefined && answer.qr.payload !== payload) {
        payload = answer.qr.payload;
        if (!move({ state: 'waiting_scan', qr: { payload } })) return;
      }
    }
  };

  const work = async (): Promise<void> => {
    deps.log?.({ event: 'login.preparing', connector: slug, pluginKey: target.pluginKey });
    const toolPath = await resolveTool(deps.tools, target, controller.signal);
    if (controller.signal.aborted) return;
    if (E.isLeft(toolPath)) return fail(toolPath.left);
    await (localAuth.type === 'local_qr' ? qrFlow(toolPath.right) : browserFlow(toolPath.right));
  };

  const done = work().then(
    () => state,
    (cause: unknown) => {
      // Ports never reject; should one do so anyway, the session ends in an error without the cause's text.
      void cause;
      fail({ _tag: 'LoginRejected', connector: slug, status: 'error', message: `The login of connector "${slug}" failed unexpectedly.` });
      return state;
    },
  ).then((final): LoginOutcome => (isTerminal(final) ? final : { state: 'cancelled' }));

  return {
    generation,
    pluginKey: target.pluginKey,
    connector: slug,
    type: localAuth.type,
    current: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    cancel() {
      if (move({ state: 'cancelled' })) controller.abort();
    },
    done,
  };
}

/**
 * The login sessions of one device: at most one per plugin and connector. Starting a session for a
 * connector cancels the one before it; {@link LoginSessions.isCurrent} tells a caller holding an old
 * generation that its work is obsolete.
 */
export class LoginSessions {
  readonly #active = new Map<string, LoginSession>();
  #generation = 0;

  constructor(private readonly deps: LoginDeps) {}

  /** Starts a session, cancelling any earlier session of the same connector. */
  start(target: AuthTarget): LoginSession {
    const key = JSON.stringify([target.pluginKey, target.connector.slug]);
    this.#active.get(key)?.cancel();
    const session = startLoginSession(this.deps, target, ++this.#generation);
    this.#active.set(key, session);
    void session.done.then(() => {
      if (this.#active.get(key) === session) this.#active.delete(key);
    });
    return session;
  }

  /** The running session of a connector, if any. */
  active(pluginKey: string, connectorSlug: string): LoginSession | undefined {
    return this.#active.get(JSON.stringify([pluginKey, connectorSlug]));
  }

  /** Cancels a session by generation (the Executor's cancel RPC); a stale generation is ignored. */
  cancel(generation: number): boolean {
    for (const session of this.#active.values()) {
      if (session.generation === generation) {
        session.cancel();
        return true;
      }
    }
    return false;
  }

  /** Whether `generation` is still the running session of its connector. */
  isCurrent(generation: number): boolean {
    return [...this.#active.values()].some((session) => session.generation === generation && !isTerminal(session.current()));
  }

  /** Cancels every session (the executor shuts down or the device signs out). */
  cancelAll(): void {
    for (const session of this.#active.values()) session.cancel();
  }
}
