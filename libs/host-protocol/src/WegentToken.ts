/**
 * The Wegent runtime token: the credential local application skills use for the Wegent backend's runtime
 * APIs. The host issues it (`POST /api/users/me/wegent-runtime-token`) and hands it to the executor with
 * `runtime/setWegentToken { token, expiresIn }`; commands that Codex runs see it as
 * `WEGENT_RUNTIME_AUTH_TOKEN`. Before it expires the executor asks for a new one with the
 * `runtime/wegentTokenExpiring` notification, at {@link expiringNoticeAt}.
 *
 * The token is its own credential: never the per-task bearer (`AUTH_TOKEN`) or the device connection's
 * (`WEGENT_AUTH_TOKEN`). The codecs refuse a bad token without repeating it (a decode failure names the
 * field and the expected type only).
 *
 * Every value here is plain data; the codecs and functions are pure (the time is passed in, never read).
 */
import * as t from 'io-ts';
import { constrainedNumber, constrainedString } from './Constrained.js';
import { notificationDescriptor, requestDescriptor } from './Descriptor.js';

/** The name under which commands see the token (also in the light `./environment` entry). */
export { WEGENT_RUNTIME_TOKEN_ENV } from './environment.js';
/** The names the token is never given under (the per-task bearer, the device connection's token). */
export const RESERVED_TOKEN_ENV: ReadonlyArray<string> = ['AUTH_TOKEN', 'WEGENT_AUTH_TOKEN'];

/** The longest token taken, in characters (a JWT is far shorter; an environment value may hold 128 KiB). */
export const WEGENT_TOKEN_MAX_LENGTH = 16_384;
/** The longest lifetime taken, in seconds (30 days). */
export const WEGENT_TOKEN_MAX_EXPIRES_IN = 30 * 24 * 60 * 60;
/** The latest notice before the expiry, in milliseconds: a minute. */
export const WEGENT_TOKEN_NOTICE_LEAD_MS = 60_000;
/** The share of the lifetime after which the notice comes at the latest: 80 %. */
export const WEGENT_TOKEN_NOTICE_SHARE = 0.8;

/** Visible ASCII only (no space, no control character): what a bearer token is made of. */
const VISIBLE_ASCII = '^[\\x21-\\x7e]+$';

/** The brand of a checked {@link WegentToken}. */
export interface WegentTokenBrand {
  readonly WegentToken: unique symbol;
}

/** A token: 1 to {@link WEGENT_TOKEN_MAX_LENGTH} visible ASCII characters. */
export const WegentToken = constrainedString<t.Branded<string, WegentTokenBrand>>(
  { minLength: 1, maxLength: WEGENT_TOKEN_MAX_LENGTH, pattern: VISIBLE_ASCII },
  'WegentToken',
);
/** See the codec {@link WegentToken}. */
export type WegentToken = t.TypeOf<typeof WegentToken>;

/** The brand of a checked {@link ExpiresInSeconds}. */
export interface ExpiresInBrand {
  readonly ExpiresInSeconds: unique symbol;
}

/** A lifetime in whole seconds, 1 to {@link WEGENT_TOKEN_MAX_EXPIRES_IN} (the backend's `expires_in`). */
export const ExpiresInSeconds = constrainedNumber<t.Branded<number, ExpiresInBrand>>(
  { integer: true, minimum: 1, maximum: WEGENT_TOKEN_MAX_EXPIRES_IN },
  'ExpiresInSeconds',
);
/** See the codec {@link ExpiresInSeconds}. */
export type ExpiresInSeconds = t.TypeOf<typeof ExpiresInSeconds>;

/** When a token was received, when the executor asks for the next one, and when it expires (epoch ms). */
export const WegentTokenSchedule = t.type({ receivedAt: t.number, refreshAt: t.number, expiresAt: t.number }, 'WegentTokenSchedule');
/** See the codec {@link WegentTokenSchedule}. */
export type WegentTokenSchedule = t.TypeOf<typeof WegentTokenSchedule>;

/**
 * `runtime/setWegentToken`: the token new commands see as `WEGENT_RUNTIME_AUTH_TOKEN`, valid for
 * `expiresIn` seconds; it replaces the previous one. Answers when the executor will ask for the next.
 */
export const RuntimeSetWegentToken = requestDescriptor('runtime/setWegentToken', t.type({ token: WegentToken, expiresIn: ExpiresInSeconds }), WegentTokenSchedule, { secrets: [['token']] });

/**
 * `runtime/clearWegentToken`: drops the token (the user left Wegent cloud or signed out). The commands
 * of later turns no longer see `WEGENT_RUNTIME_AUTH_TOKEN`; no expiry notice comes for it. `cleared`
 * says whether there was a token.
 */
export const RuntimeClearWegentToken = requestDescriptor('runtime/clearWegentToken', t.type({}), t.type({ cleared: t.boolean }));

/** `runtime/wegentTokenExpiring`: the current token expires soon; issue a new one and send it with `runtime/setWegentToken`. */
export const WegentTokenExpiringNotification = notificationDescriptor(
  'runtime/wegentTokenExpiring',
  t.type({ expiresAt: t.number, expiresIn: t.number }),
);

/**
 * When the executor asks for a new token (epoch ms): 80 % into the lifetime or a minute before the
 * expiry, whichever comes first — at once for a lifetime of a minute or less. Always in
 * `[receivedAt, receivedAt + lifetime)`.
 * @example
 * ```ts
 * expiringNoticeAt(0, 3600); // 2_880_000 (80 % of an hour)
 * expiringNoticeAt(0, 120); // 60_000 (a minute before)
 * expiringNoticeAt(0, 30); // 0 (at once)
 * ```
 */
export function expiringNoticeAt(receivedAt: number, expiresIn: number): number {
  const lifetime = expiresIn * 1000;
  const after = Math.min(Math.floor(lifetime * WEGENT_TOKEN_NOTICE_SHARE), lifetime - WEGENT_TOKEN_NOTICE_LEAD_MS);
  return receivedAt + Math.max(0, after);
}

/**
 * The schedule of a token received at `receivedAt` (epoch ms) with `expiresIn` seconds.
 * @example
 * ```ts
 * wegentTokenSchedule(1_000, 3600); // { receivedAt: 1_000, refreshAt: 2_881_000, expiresAt: 3_601_000 }
 * ```
 */
export function wegentTokenSchedule(receivedAt: number, expiresIn: number): WegentTokenSchedule {
  return { receivedAt, refreshAt: expiringNoticeAt(receivedAt, expiresIn), expiresAt: receivedAt + expiresIn * 1000 };
}

/**
 * The params of the `runtime/wegentTokenExpiring` notice sent at `now`: the expiry and the whole seconds left.
 * @example
 * ```ts
 * expiringNotice({ receivedAt: 0, refreshAt: 2_880_000, expiresAt: 3_600_000 }, 2_880_000); // { expiresAt: 3_600_000, expiresIn: 720 }
 * ```
 */
export function expiringNotice(schedule: WegentTokenSchedule, now: number): { readonly expiresAt: number; readonly expiresIn: number } {
  return { expiresAt: schedule.expiresAt, expiresIn: Math.max(0, Math.floor((schedule.expiresAt - now) / 1000)) };
}
