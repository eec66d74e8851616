/**
 * auth.json files shaped like the ones Codex writes after a ChatGPT sign-in (from
 * `@wework/codex-home/testing`), with made-up claims and a canary string in every secret field — the
 * tokens and the id token itself — so tests can prove no secret leaks anywhere.
 */
import { chatGptAuthJson } from '@wework/codex-home/testing';

/** A string that must never appear in a log line, an error, a report or a snapshot of the host. */
export const TOKEN_CANARY = 'CANARY-7f3a9c-secret-token-do-not-log';

/** The bytes of a ChatGPT auth.json for a made-up account. */
export function chatgptAuthJson(account: { readonly email: string; readonly accountId: string; readonly userId: string; readonly plan?: string }): string {
  return chatGptAuthJson({
    email: account.email,
    accountId: account.accountId,
    userId: account.userId,
    planType: account.plan ?? 'plus',
    accessToken: `${TOKEN_CANARY}-access`,
    refreshToken: `${TOKEN_CANARY}-refresh`,
    idTokenSecret: TOKEN_CANARY,
    lastRefresh: '2026-11-30T12:00:00Z',
  });
}
