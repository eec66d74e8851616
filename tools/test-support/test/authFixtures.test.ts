import { describe, expect, it } from 'vitest';
import { chatgptAuthJson, idTokenOf, TOKEN_CANARY } from '../src/index.js';

const claimsOf = (idToken: string): Record<string, unknown> => JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

describe('chatgptAuthJson', () => {
  const text = chatgptAuthJson({ email: 'ada@example.test', accountId: 'acc-1', userId: 'user-1' });
  const auth = JSON.parse(text) as { auth_mode?: string; tokens: Record<string, string> };

  it('puts the canary in every secret field', () => {
    expect(auth.tokens['access_token']).toContain(TOKEN_CANARY);
    expect(auth.tokens['refresh_token']).toContain(TOKEN_CANARY);
    expect(claimsOf(idTokenOf(text))['secret_note']).toBe(TOKEN_CANARY);
    expect(Buffer.from(idTokenOf(text).split('.')[2] ?? '', 'base64url').toString('utf8')).toContain(TOKEN_CANARY);
  });

  it('carries the made-up account in the id token, plus by default', () => {
    const claims = JSON.stringify(claimsOf(idTokenOf(text)));
    expect(claims).toContain('ada@example.test');
    expect(claims).toContain('acc-1');
    expect(claims).toContain('user-1');
    expect(claims).toContain('plus');
    expect(JSON.stringify(claimsOf(idTokenOf(chatgptAuthJson({ email: 'b@example.test', accountId: 'acc-2', userId: 'user-2', plan: 'team' }))))).toContain('team');
  });
});
