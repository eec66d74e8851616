import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAuthFile, decodeIdTokenClaims, identifyAuth, MAX_CLAIM_LENGTH } from '../src/AuthClaims.js';
import { utf8 } from '../src/internal/Bytes.js';
import { sha256Hex } from '@wework/ports/testing';
import { apiKeyAuthJson, authJsonArbitrary, chatGptAuthJson, fakeIdToken } from '../src/testing.js';
import { CANARY } from './support.js';

const digest = (bytes: Uint8Array) => () => Promise.resolve(sha256Hex(bytes));

describe('decodeIdTokenClaims', () => {
  it('reads the claims Codex reads from an id token', () => {
    const token = fakeIdToken({
      email: 'ada@example.com',
      'https://api.openai.com/auth': { chatgpt_account_id: 'acc-1', chatgpt_user_id: 'user-1', chatgpt_plan_type: 'plus' },
    });
    expect(decodeIdTokenClaims(token)).toEqual(E.right({ email: 'ada@example.com', planType: 'plus', chatgptAccountId: 'acc-1', chatgptUserId: 'user-1' }));
  });

  it('falls back to the profile email and to the older user_id claim', () => {
    const token = fakeIdToken({ 'https://api.openai.com/profile': { email: 'bob@example.com' }, 'https://api.openai.com/auth': { user_id: 'user-old' } });
    expect(decodeIdTokenClaims(token)).toEqual(E.right({ email: 'bob@example.com', planType: null, chatgptAccountId: null, chatgptUserId: 'user-old' }));
  });

  it('treats ill-typed claims as absent and cuts very long ones', () => {
    const token = fakeIdToken({ email: 42, 'https://api.openai.com/auth': { chatgpt_account_id: 'x'.repeat(MAX_CLAIM_LENGTH + 10), chatgpt_plan_type: {} } });
    const claims = decodeIdTokenClaims(token);
    expect(E.isRight(claims) && claims.right.email).toBeNull();
    expect(E.isRight(claims) && claims.right.chatgptAccountId?.length).toBe(MAX_CLAIM_LENGTH);
  });

  it('rejects what is not a three-part JWT with a JSON object payload', () => {
    for (const token of ['', 'abc', 'a.b', '.e30.sig', 'a.e30.', 'a.!!!.sig', 'a.WzFd.sig', 'a.bnVsbA.sig']) {
      expect(decodeIdTokenClaims(token)).toEqual(E.left({ _tag: 'MalformedIdToken' }));
    }
  });

  it('never throws, whatever the token', () => {
    fc.assert(fc.property(fc.string(), (s) => E.isLeft(decodeIdTokenClaims(s)) || E.isRight(decodeIdTokenClaims(s))));
    fc.assert(
      fc.property(fc.jsonValue(), (payload) => {
        const result = decodeIdTokenClaims(fakeIdToken(payload));
        return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? E.isRight(result) : E.isLeft(result);
      }),
    );
  });
});

describe('decodeAuthFile', () => {
  it('recognises ChatGPT auth, API-key auth and anything else', () => {
    const chatgpt = decodeAuthFile(utf8(chatGptAuthJson({ email: 'ada@example.com', accountId: 'acc-1', userId: 'user-1', planType: 'pro' })));
    expect(chatgpt).toEqual(
      E.right({
        kind: 'chatgpt',
        authMode: 'chatgpt',
        claims: { email: 'ada@example.com', planType: 'pro', chatgptAccountId: 'acc-1', chatgptUserId: 'user-1' },
        tokenAccountId: 'acc-1',
      }),
    );
    expect(decodeAuthFile(utf8(apiKeyAuthJson('sk-test')))).toEqual(E.right({ kind: 'apiKey', authMode: 'apikey' }));
    expect(decodeAuthFile(utf8('{"OPENAI_API_KEY":"sk-legacy"}'))).toEqual(E.right({ kind: 'apiKey', authMode: null }));
    expect(decodeAuthFile(utf8('{"auth_mode":"personalAccessToken","personal_access_token":"x"}'))).toEqual(E.right({ kind: 'other', authMode: 'personalAccessToken' }));
    expect(decodeAuthFile(utf8('[1]'))).toEqual(E.left({ _tag: 'MalformedAuthFile' }));
    expect(decodeAuthFile(new Uint8Array([0xff, 0xfe]))).toEqual(E.left({ _tag: 'MalformedAuthFile' }));
  });

  it('never throws on arbitrary bytes or JSON', () => {
    fc.assert(fc.property(fc.uint8Array(), (bytes) => typeof decodeAuthFile(bytes)._tag === 'string'));
    fc.assert(fc.property(authJsonArbitrary, (text) => typeof decodeAuthFile(utf8(text))._tag === 'string'));
  });
});

describe('identifyAuth', () => {
  it('identifies a ChatGPT account by account id and user id', async () => {
    const summary = await identifyAuth(digest, utf8(chatGptAuthJson({ email: 'ada@example.com', accountId: 'acc-1', userId: 'user-1', planType: 'plus' })))();
    expect(summary).toEqual(
      E.right({ id: 'chatgpt:acc-1:user-1', kind: 'chatgpt', authMode: 'chatgpt', email: 'ada@example.com', planType: 'plus', chatgptAccountId: 'acc-1', chatgptUserId: 'user-1' }),
    );
  });

  it('identifies an API key by a digest of the key, never the key', async () => {
    const summary = await identifyAuth(digest, utf8(apiKeyAuthJson(CANARY)))();
    const expected = `apikey:${sha256Hex(utf8(CANARY)).slice(0, 16)}`;
    expect(E.isRight(summary) && summary.right.id).toBe(expected);
    expect(JSON.stringify(summary)).not.toContain(CANARY);
  });

  it('never carries a token, whatever the auth.json', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('chatgpt', 'apikey', 'other'), async (kind) => {
        const text =
          kind === 'chatgpt'
            ? chatGptAuthJson({ email: 'e', accountId: 'a', userId: 'u', accessToken: CANARY, refreshToken: CANARY })
            : kind === 'apikey'
              ? apiKeyAuthJson(CANARY)
              : JSON.stringify({ auth_mode: 'agentIdentity', agent_identity: CANARY });
        const result = await identifyAuth(digest, utf8(text))();
        return !JSON.stringify(result).includes(CANARY) && !String(result).includes(CANARY);
      }),
    );
  });
});
