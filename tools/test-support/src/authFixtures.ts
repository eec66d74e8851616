/**
 * auth.json files shaped like the ones Codex writes after a ChatGPT sign-in (from
 * `@wework/codex-home/testing`), with made-up claims and a canary string in every secret field — the
 * tokens and the id token itself — so a test can prove no secret reaches a host, a log, a report or a
 * snapshot.
 */
import { chatGptAuthJson } from '@wework/codex-home/testing';

/** A string that must never appear in a message to the host, a log line, an error or a report. */
export const TOKEN_CANARY = 'CANARY-7f3a9c-secret-token-do-not-log';

/** A made-up ChatGPT account: the claims Codex reads from the id token. */
export interface FakeChatgptAccount {
  readonly email: string;
  readonly accountId: string;
  readonly userId: string;
  /** `plus` when absent. */
  readonly plan?: string;
}

/** The bytes of a ChatGPT auth.json for a made-up account, every secret a {@link TOKEN_CANARY}. */
export function chatgptAuthJson(account: FakeChatgptAccount): string {
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

/** The id token inside an auth.json made by {@link chatgptAuthJson}. */
export const idTokenOf = (authJson: string): string => (JSON.parse(authJson) as { tokens: { id_token: string } }).tokens.id_token;
