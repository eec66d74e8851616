/**
 * auth.json files shaped like the ones Codex writes after a ChatGPT sign-in, with made-up claims and
 * a canary string in every secret field, so a test can prove no secret reaches the host or the log.
 * (The harness speaks to the executor as a host and does not import it; this mirrors the executor's
 * own test fixture.)
 */

/** A string that must never appear in a message to the host or in the executor's log. */
export const TOKEN_CANARY = 'CANARY-7f3a9c-secret-token-do-not-log';

/** A made-up ChatGPT account: the claims Codex reads from the id token. */
export interface FakeChatgptAccount {
  readonly email: string;
  readonly accountId: string;
  readonly userId: string;
  readonly plan?: string;
}

const base64Url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The id token of a made-up account: a JWT whose payload and signature carry the canary. */
export function fakeIdToken(account: FakeChatgptAccount): string {
  return [
    base64Url({ alg: 'RS256', typ: 'JWT' }),
    base64Url({
      email: account.email,
      'https://api.openai.com/auth': {
        chatgpt_account_id: account.accountId,
        chatgpt_user_id: account.userId,
        chatgpt_plan_type: account.plan ?? 'plus',
      },
      secret_note: TOKEN_CANARY,
    }),
    Buffer.from(TOKEN_CANARY).toString('base64url'),
  ].join('.');
}

/** The bytes of a ChatGPT auth.json for a made-up account. */
export function chatgptAuthJson(account: FakeChatgptAccount): string {
  return `${JSON.stringify(
    {
      auth_mode: 'chatgpt',
      OPENAI_API_KEY: null,
      tokens: { id_token: fakeIdToken(account), access_token: `${TOKEN_CANARY}-access`, refresh_token: `${TOKEN_CANARY}-refresh`, account_id: account.accountId },
      last_refresh: '2026-11-30T12:00:00Z',
    },
    null,
    2,
  )}\n`;
}
