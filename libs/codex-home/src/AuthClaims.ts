/**
 * Who an auth.json belongs to, read from its non-secret parts only.
 *
 * Codex writes auth.json as `{"auth_mode":"apikey","OPENAI_API_KEY":"..."}` for an API key, and for
 * ChatGPT as `{"auth_mode":"chatgpt","tokens":{"id_token":"<JWT>","access_token":...,"refresh_token":...,
 * "account_id":...},"last_refresh":...}`. The id token's payload carries `email` (or
 * `https://api.openai.com/profile.email`) and an `https://api.openai.com/auth` object with
 * `chatgpt_account_id`, `chatgpt_user_id` (older tokens: `user_id`) and `chatgpt_plan_type`.
 *
 * The payload is decoded, never verified: the claims only label accounts. Nothing returned here
 * holds a token or a key — an API key is represented by a digest — and decoding never throws.
 * {@link decodeAuthFile} and {@link decodeIdTokenClaims} are pure; {@link identifyAuth} needs only
 * a digest function.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as T from 'fp-ts/lib/Task.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { decodeBase64Url, parseJson, textOf, utf8 } from './internal/Bytes.js';

/** The longest claim string kept; longer values are cut (claims are labels, not data). */
export const MAX_CLAIM_LENGTH = 512;

/** The non-secret claims of a ChatGPT id token. Absent or ill-typed claims are `null`. */
export interface ChatGptClaims {
  readonly email: string | null;
  readonly planType: string | null;
  readonly chatgptAccountId: string | null;
  readonly chatgptUserId: string | null;
}

/** What kind of credential an auth.json holds. */
export type AuthKind = 'chatgpt' | 'apiKey' | 'other';

/** The identity of an account saved on this device, from non-secret data only. */
export interface AccountSummary {
  /**
   * Stable identity: `chatgpt:<account id>:<user id>` from the claims (`chatgpt-email:<email>` when
   * both are missing), `apikey:<16 hex digits of the
   * key's SHA-256>`, or `auth:<16 hex digits of the file's SHA-256>` when nothing better is known.
   */
  readonly id: string;
  readonly kind: AuthKind;
  /** The `auth_mode` written in auth.json, if any (`apikey`, `chatgpt`, ...). */
  readonly authMode: string | null;
  readonly email: string | null;
  readonly planType: string | null;
  readonly chatgptAccountId: string | null;
  readonly chatgptUserId: string | null;
}

/** The id token is not a JWT whose payload is a JSON object. */
export interface MalformedIdToken {
  readonly _tag: 'MalformedIdToken';
}

/** auth.json is not a JSON object (its content is never repeated). */
export interface MalformedAuthFile {
  readonly _tag: 'MalformedAuthFile';
}

/** An io-ts codec that never fails: the value when `codec` accepts it, otherwise `null`. */
const lenient = <A>(codec: t.Decoder<unknown, A>, name: string): t.Type<A | null, unknown, unknown> =>
  new t.Type<A | null, unknown, unknown>(
    name,
    (u): u is A | null => u === null || E.isRight(codec.decode(u)),
    (u) => t.success(E.getOrElseW(() => null)(codec.decode(u))),
    (a) => a,
  );

const Claim = lenient(t.string, 'Claim');

const AuthClaimsObject = lenient(
  t.type({ chatgpt_account_id: Claim, chatgpt_user_id: Claim, user_id: Claim, chatgpt_plan_type: Claim }),
  'AuthClaims',
);

/** The id token payload's claims this library reads (io-ts codec; every field lenient). */
const IdTokenPayload = t.type({
  email: Claim,
  'https://api.openai.com/profile': lenient(t.type({ email: Claim }), 'ProfileClaims'),
  'https://api.openai.com/auth': AuthClaimsObject,
});

const TokensObject = lenient(t.type({ id_token: Claim, account_id: Claim }), 'Tokens');

/** The parts of auth.json this library reads (io-ts codec; every field lenient). */
const AuthFile = t.type({ auth_mode: Claim, OPENAI_API_KEY: Claim, tokens: TokensObject });

const bounded = (value: string | null): string | null => (value === null || value === '' ? null : value.slice(0, MAX_CLAIM_LENGTH));

/**
 * The claims of a ChatGPT id token (a JWT `header.payload.signature`), decoded without verification.
 * Never throws, whatever the input.
 *
 * @example
 * ```ts
 * decodeIdTokenClaims(idToken);
 * // Right({ email: 'ada@example.com', planType: 'plus', chatgptAccountId: 'acc-1', chatgptUserId: 'user-1' })
 * ```
 */
export const decodeIdTokenClaims = (jwt: string): E.Either<MalformedIdToken, ChatGptClaims> => {
  const malformed: E.Either<MalformedIdToken, never> = E.left({ _tag: 'MalformedIdToken' });
  const parts = jwt.split('.');
  const payloadText = parts.length >= 3 && parts[0] !== '' && parts[2] !== '' ? parts[1] : undefined;
  if (payloadText === undefined || payloadText === '') return malformed;
  const bytes = decodeBase64Url(payloadText);
  const text = bytes === null ? null : textOf(bytes);
  if (text === null) return malformed;
  const json = parseJson(text);
  if (E.isLeft(json) || typeof json.right !== 'object' || json.right === null || Array.isArray(json.right)) return malformed;
  const payload = IdTokenPayload.decode(json.right);
  if (E.isLeft(payload)) return malformed;
  const claims = payload.right;
  const auth = claims['https://api.openai.com/auth'];
  return E.right({
    email: bounded(claims.email ?? claims['https://api.openai.com/profile']?.email ?? null),
    planType: bounded(auth?.chatgpt_plan_type ?? null),
    chatgptAccountId: bounded(auth?.chatgpt_account_id ?? null),
    chatgptUserId: bounded(auth?.chatgpt_user_id ?? auth?.user_id ?? null),
  });
};

/** What an auth.json holds, without its secrets (see {@link decodeAuthFile}). */
export type AuthFileView =
  | { readonly kind: 'chatgpt'; readonly authMode: string | null; readonly claims: ChatGptClaims; readonly tokenAccountId: string | null }
  | { readonly kind: 'apiKey'; readonly authMode: string | null }
  | { readonly kind: 'other'; readonly authMode: string | null };

const noClaims: ChatGptClaims = { email: null, planType: null, chatgptAccountId: null, chatgptUserId: null };

interface DecodedAuthFile {
  readonly view: AuthFileView;
  /** The API key's bytes, only for digesting; never leaves this module. */
  readonly apiKey: Uint8Array | null;
}

const decodeWithKey = (bytes: Uint8Array): E.Either<MalformedAuthFile, DecodedAuthFile> => {
  const text = textOf(bytes);
  const json = text === null ? null : parseJson(text);
  if (json === null || E.isLeft(json) || typeof json.right !== 'object' || json.right === null || Array.isArray(json.right)) {
    return E.left({ _tag: 'MalformedAuthFile' });
  }
  const file = AuthFile.decode(json.right);
  if (E.isLeft(file)) return E.left({ _tag: 'MalformedAuthFile' });
  const { auth_mode: authMode, OPENAI_API_KEY: apiKey, tokens } = file.right;
  const mode = authMode ?? (apiKey !== null && apiKey !== '' ? 'apikey' : tokens !== null ? 'chatgpt' : null);
  if (mode === 'apikey' && apiKey !== null && apiKey !== '') return E.right({ view: { kind: 'apiKey', authMode }, apiKey: utf8(apiKey) });
  if ((mode === 'chatgpt' || mode === 'chatgptAuthTokens') && tokens !== null) {
    const claims = tokens.id_token === null ? noClaims : E.getOrElse(() => noClaims)(decodeIdTokenClaims(tokens.id_token));
    return E.right({ view: { kind: 'chatgpt', authMode, claims, tokenAccountId: bounded(tokens.account_id) }, apiKey: null });
  }
  return E.right({ view: { kind: 'other', authMode }, apiKey: null });
};

/**
 * What an auth.json holds — ChatGPT claims, "an API key", or something else — without any secret.
 * Never throws, whatever the bytes.
 */
export const decodeAuthFile = (bytes: Uint8Array): E.Either<MalformedAuthFile, AuthFileView> => E.map((d: DecodedAuthFile) => d.view)(decodeWithKey(bytes));

/** A function returning the lowercase hexadecimal SHA-256 of bytes (the port's `digest`). */
export type Digest = (bytes: Uint8Array) => T.Task<string>;

const SHORT_DIGEST = 16;

/**
 * The {@link AccountSummary} of an auth.json. A ChatGPT account is identified by its claims
 * (account id and user id, else email); an API key by a digest of the key; anything else by a
 * digest of the file.
 */
export const identifyAuth =
  (digest: Digest, bytes: Uint8Array): TE.TaskEither<MalformedAuthFile, AccountSummary> =>
  async () => {
    const decoded = decodeWithKey(bytes);
    if (E.isLeft(decoded)) return decoded;
    const { view, apiKey } = decoded.right;
    if (view.kind === 'apiKey' && apiKey !== null) {
      const keyDigest = await digest(apiKey)();
      return E.right({ ...noClaims, id: `apikey:${keyDigest.slice(0, SHORT_DIGEST)}`, kind: 'apiKey', authMode: view.authMode });
    }
    if (view.kind === 'chatgpt') {
      const accountId = view.claims.chatgptAccountId ?? view.tokenAccountId;
      const claims = { ...view.claims, chatgptAccountId: accountId };
      if (accountId !== null || claims.chatgptUserId !== null) {
        return E.right({ ...claims, id: `chatgpt:${accountId ?? '-'}:${claims.chatgptUserId ?? '-'}`, kind: 'chatgpt', authMode: view.authMode });
      }
      if (claims.email !== null) return E.right({ ...claims, id: `chatgpt-email:${claims.email}`, kind: 'chatgpt', authMode: view.authMode });
    }
    const fileDigest = await digest(bytes)();
    const kind = view.kind === 'chatgpt' ? 'chatgpt' : 'other';
    const claims = view.kind === 'chatgpt' ? view.claims : noClaims;
    return E.right({ ...claims, id: `auth:${fileDigest.slice(0, SHORT_DIGEST)}`, kind, authMode: view.authMode });
  };
