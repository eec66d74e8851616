/**
 * Settings → Codex Settings → Authentication: the accounts saved on this device, "Add account" (a
 * browser login through the app-server) and "Switch" (replace auth.json, restart the app-server).
 * Only summaries from non-secret claims reach the host: never tokens, auth.json paths or digests.
 */
import * as E from 'fp-ts/lib/Either.js';
import { describeAccountFault } from '@wework/host-errors';
import { isIdleActivity, type ConnectionActivity } from '@wework/app-server-client';
import type { AccountList, AccountsError, AccountSummary, AddAccountOutcome, CodexHome, SwitchOutcome } from '@wework/codex-home';
import type { Log } from '@wework/ports';
import type { RuntimeFault } from '@wework/host-errors';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { startLogin, type LoginError } from './ChatGptLogin.js';

/** Why an account operation failed, for the host. */
export type AccountServiceError =
  | { readonly _tag: 'Accounts'; readonly error: AccountsError }
  | { readonly _tag: 'Login'; readonly error: LoginError }
  | { readonly _tag: 'Runtime'; readonly error: RuntimeFault }
  | { readonly _tag: 'SwitchWhileBusy'; readonly activity: ConnectionActivity };

/** A sentence a person can act on (`@wework/host-errors`'s, as a host sees it); never a token, a digest or an auth.json path. */
export const describeAccountServiceError = (error: AccountServiceError): string => describeAccountFault(error);

/** "Add account" in progress: the host opens `authUrl`; `cancel` when the page is left. */
export interface PendingAccount {
  readonly authUrl: string;
  /** Settles when the login completed (the new account is saved) or failed / was cancelled. */
  readonly completion: Promise<E.Either<AccountServiceError, AccountSummary>>;
  cancel(): Promise<void>;
}

/** The account operations of the executor. */
export interface AccountService {
  list(): Promise<E.Either<AccountServiceError, AccountList>>;
  add(): Promise<E.Either<AccountServiceError, PendingAccount>>;
  /** Refused while a turn or an app-server request is active; restarts the app-server after switching. */
  switchTo(accountId: string): Promise<E.Either<AccountServiceError, SwitchOutcome>>;
}

/** What {@link accountService} needs. */
export interface AccountServiceOptions {
  readonly home: CodexHome;
  readonly runtime: RuntimeSupervisor;
  readonly log: Log;
  /** How long a browser login may take. Default 10 minutes. */
  readonly loginTimeoutMs?: number;
  /** How often auth.json is checked during a login. Default 500 ms. */
  readonly loginPollMs?: number;
}

const accountsError = (error: AccountsError): AccountServiceError => ({ _tag: 'Accounts', error });

/** The account operations over one Codex home and its app-server. */
export function accountService(options: AccountServiceOptions): AccountService {
  const { home, runtime, log } = options;
  let switching = false;

  const list = async (): Promise<E.Either<AccountServiceError, AccountList>> => E.mapLeft(accountsError)(await home.listAccounts()());

  const add = async (): Promise<E.Either<AccountServiceError, PendingAccount>> => {
    const started = await home.startAddAccount()();
    if (E.isLeft(started)) return E.left(accountsError(started.left));
    const login = await startLogin({
      client: runtime.current().server.client,
      authDigest: async () => {
        const digest = await home.readAuthDigest()();
        return E.isRight(digest) ? digest.right : null;
      },
      timeoutMs: options.loginTimeoutMs ?? 10 * 60_000,
      ...(options.loginPollMs === undefined ? {} : { pollMs: options.loginPollMs }),
    });
    if (E.isLeft(login)) return E.left({ _tag: 'Login', error: login.left });
    log({ event: 'account login started', fields: { savedPrevious: started.right.previous !== null } });
    const completion = login.right.completion.then(async (outcome): Promise<E.Either<AccountServiceError, AccountSummary>> => {
      if (E.isLeft(outcome)) {
        log({ event: 'account login ended', fields: { outcome: outcome.left._tag } });
        return E.left({ _tag: 'Login', error: outcome.left });
      }
      const finished = await home.finishAddAccount(started.right)();
      if (E.isLeft(finished)) return E.left(accountsError(finished.left));
      const added: AddAccountOutcome = finished.right;
      if (added._tag === 'LoginNotCompleted') return E.left({ _tag: 'Login', error: { _tag: 'LoginFailed', reason: 'auth.json did not change' } });
      log({ event: 'account added', fields: { kind: added.account.kind, snapshot: added.snapshot } });
      return E.right(added.account);
    });
    return E.right({ authUrl: login.right.authUrl, completion, cancel: login.right.cancel });
  };

  const switchTo = async (accountId: string): Promise<E.Either<AccountServiceError, SwitchOutcome>> => {
    const activity = runtime.activity();
    if (!isIdleActivity(activity) || switching) {
      log({ event: 'account switch refused', fields: { activeTurns: activity.activeTurns.length, requests: activity.requestsInFlight.length + activity.serverRequestsPending.length } });
      return E.left({ _tag: 'SwitchWhileBusy', activity });
    }
    switching = true;
    try {
      const switched = await home.switchAccount({
        accountId,
        activity: { activeTurns: activity.activeTurns.length, pendingRequests: activity.requestsInFlight.length + activity.serverRequestsPending.length },
      })();
      if (E.isLeft(switched)) return E.left(accountsError(switched.left));
      if (switched.right._tag === 'AlreadyActive') return switched;
      const restarted = await runtime.restart();
      if (E.isLeft(restarted)) return E.left({ _tag: 'Runtime', error: restarted.left });
      log({ event: 'account switched', fields: { kind: switched.right.account.kind, throughLink: switched.right.wroteThroughLinkTo !== null } });
      return switched;
    } finally {
      switching = false;
    }
  };

  return { list, add, switchTo };
}
