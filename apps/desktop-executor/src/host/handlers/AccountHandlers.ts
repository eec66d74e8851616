/**
 * The accounts area of the host protocol: list the device's Codex accounts, add one by a browser login,
 * cancel that login, switch the active one.
 */
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { accountFailure, describeAccountFault } from '@wework/host-errors';
import { LoginCompletedNotification, type HostHandlersPart } from '@wework/host-protocol';
import type { PendingAccount } from '../../accounts/AccountService.js';
import { empty, ok, type HostCall, type HandlerKit } from './HandlerKit.js';

/** `accounts/list`, `accounts/add`, `accounts/cancel`, `accounts/switch`. */
export function accountHandlers(kit: HandlerKit): HostHandlersPart<'accounts/list' | 'accounts/add' | 'accounts/cancel' | 'accounts/switch', HostCall> {
  const { accounts, sessions } = kit.services;
  const logins = new Map<string, PendingAccount>();
  return {
    'accounts/list': async () => E.mapLeft(accountFailure)(await accounts.list()),
    'accounts/add': kit.withCodex(async () => {
      const pending = await accounts.add();
      if (E.isLeft(pending)) return E.left(accountFailure(pending.left));
      const loginId = randomUUID();
      logins.set(loginId, pending.right);
      void pending.right.completion.then((outcome) => {
        logins.delete(loginId);
        // A new sign-in: the official catalog's metadata and fetches in flight belong to the old one.
        if (E.isRight(outcome)) kit.accountChanged();
        // Part of the event stream (with its `seq`), so a host that reconnects still learns the outcome.
        sessions.broadcast(LoginCompletedNotification.method, { loginId, ok: E.isRight(outcome), message: E.isLeft(outcome) ? describeAccountFault(outcome.left) : null });
      });
      return ok({ loginId, authUrl: pending.right.authUrl });
    }),
    'accounts/cancel': async (params) => {
      await logins.get(params.loginId)?.cancel();
      return empty();
    },
    'accounts/switch': async (params) => {
      const switched = await accounts.switchTo(params.accountId);
      if (E.isLeft(switched)) return E.left(accountFailure(switched.left));
      // Another account: the official catalog's cached metadata and fetches in flight belong to the old one.
      if (switched.right._tag === 'Switched') kit.accountChanged();
      const account = switched.right.account;
      return ok({ switched: switched.right._tag === 'Switched', accountId: account.id, email: account.email });
    },
  };
}
