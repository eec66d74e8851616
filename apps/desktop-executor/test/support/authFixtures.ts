/**
 * auth.json files shaped like the ones Codex writes after a ChatGPT sign-in, with made-up claims and
 * a canary string in every secret field, so tests can prove no secret leaks anywhere.
 */

/** A string that must never appear in a log line, an error, a report or a snapshot of the host. */
export const TOKEN_CANARY = 'CANARY-7f3a9c-secret-token-do-not-log';

const base64Url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The bytes of a ChatGPT auth.json for a made-up account. */
export function chatgptAuthJson(account: { readonly email: string; readonly accountId: string; readonly userId: string; readonly plan?: string }): string {
  const idToken = [
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
  return `${JSON.stringify(
    {
      auth_mode: 'chatgpt',
      OPENAI_API_KEY: null,
      tokens: { id_token: idToken, access_token: `${TOKEN_CANARY}-access`, refresh_token: `${TOKEN_CANARY}-refresh`, account_id: account.accountId },
      last_refresh: '2026-11-30T12:00:00Z',
    },
    null,
    2,
  )}\n`;
}
