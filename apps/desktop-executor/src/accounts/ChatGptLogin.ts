/**
 * One ChatGPT browser login through the app-server: `account/login/start` gives the URL the host opens
 * in the system browser; completion is detected from a changed auth.json digest (the app-server's own
 * completion notification is not relied on: a login finished by another process or on another
 * connection counts too). Cancelling, timing out or closing the page cancels the login on the
 * app-server (`account/login/cancel`). Tokens, file paths and digests never leave this module.
 */
import * as E from 'fp-ts/lib/Either.js';
import { AccountLoginCancel, AccountLoginCompleted, AccountLoginStart } from '@wework/codex-protocol';
import { type AppServerClient, describeClientErrorCategory, onClosed } from '@wework/app-server-client';

/** Why a login did not complete. */
export type LoginError =
  | { readonly _tag: 'LoginDidNotStart'; readonly reason: string }
  | { readonly _tag: 'LoginCancelled' }
  | { readonly _tag: 'LoginTimedOut'; readonly timeoutMs: number }
  | { readonly _tag: 'LoginFailed'; readonly reason: string };

/** A login waiting for the user in the browser. */
export interface ChatGptLogin {
  /** The page the host opens in the system browser. */
  readonly authUrl: string;
  /** Settles once: Right when auth.json changed, Left when cancelled, timed out or failed. */
  readonly completion: Promise<E.Either<LoginError, void>>;
  /** Cancels the login (the host left the page, or the user pressed cancel). Safe to call at any time. */
  cancel(): Promise<void>;
}

/** What {@link startLogin} needs. */
export interface LoginOptions {
  readonly client: AppServerClient;
  /** The current auth.json's digest, or null when there is none; compared, never shown. */
  readonly authDigest: () => Promise<string | null>;
  /** How long the user has to finish in the browser. */
  readonly timeoutMs: number;
  /** How often auth.json is looked at. Default 500 ms. */
  readonly pollMs?: number;
}

/**
 * Starts a ChatGPT browser login. Resolves once the app-server has answered with the page to open.
 *
 * @example
 * const login = await startLogin({ client, authDigest, timeoutMs: 10 * 60_000 });
 * if (E.isRight(login)) { openInBrowser(login.right.authUrl); await login.right.completion; }
 */
export async function startLogin(options: LoginOptions): Promise<E.Either<LoginError, ChatGptLogin>> {
  const before = await options.authDigest();
  const started = await options.client.request(AccountLoginStart, { type: 'chatgpt' });
  if (E.isLeft(started)) return E.left({ _tag: 'LoginDidNotStart', reason: describeClientErrorCategory(started.left) });
  if (started.right.type !== 'chatgpt') return E.left({ _tag: 'LoginDidNotStart', reason: `unexpected login type ${started.right.type}` });
  const { loginId, authUrl } = started.right;

  let settle: (outcome: E.Either<LoginError, void>) => void = () => undefined;
  const completion = new Promise<E.Either<LoginError, void>>((resolve) => (settle = resolve));
  let settled = false;
  const failedNotice = options.client.on(AccountLoginCompleted, (params) => {
    if (params.loginId === loginId && !params.success) finish(E.left({ _tag: 'LoginFailed', reason: params.error ?? 'unknown reason' }), false);
  });
  // A subscription dropped when the login ends, not a reaction on `client.closed`: that one would keep every
  // finished login reachable for as long as the client lives. Neither listener runs before `finish` exists.
  const connectionEnd = onClosed(options.client, () => void finish(E.left({ _tag: 'LoginFailed', reason: 'the app-server connection closed' }), false));

  const timers: { poll?: NodeJS.Timeout; deadline?: NodeJS.Timeout } = {};
  const finish = (outcome: E.Either<LoginError, void>, cancelOnServer: boolean): Promise<void> => {
    if (settled) return Promise.resolve();
    settled = true;
    settle(outcome);
    clearInterval(timers.poll);
    clearTimeout(timers.deadline);
    failedNotice.dispose();
    connectionEnd.dispose();
    if (!cancelOnServer) return Promise.resolve();
    // Best effort: the login may already be gone on the server (`notFound`), which is what we want.
    return options.client.request(AccountLoginCancel, { loginId }).then(() => undefined);
  };

  timers.poll = setInterval(() => {
    void options.authDigest().then((now) => {
      if (now !== null && now !== before) void finish(E.right(undefined), false);
    });
  }, options.pollMs ?? 500);
  timers.deadline = setTimeout(() => void finish(E.left({ _tag: 'LoginTimedOut', timeoutMs: options.timeoutMs }), true), options.timeoutMs);

  return E.right({ authUrl, completion, cancel: () => finish(E.left({ _tag: 'LoginCancelled' }), true) });
}
