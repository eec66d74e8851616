/**
 * The one status object a CLI bridge prints on stdout, and the checks it passes before anyone sees it.
 * Every function is pure: the captured stdout text in, a status or a typed error out.
 *
 * A bridge prints exactly one JSON object and exits 0:
 *
 * ```json
 * {"status":"ok","account":"Ada Lovelace"}
 * {"status":"needs_login","message":"Not logged in"}
 * {"status":"pending","qr":{"payload":"https://login.example.com/qr/abc"}}
 * {"status":"error","message":"The tool is too old"}
 * ```
 *
 * A status that carries anything credential-like (a key such as `token`, `cookie`, `password`,
 * `secret`, `authorization` or `session` at any depth, or a value that looks like a JWT, a bearer
 * header or a well-known token format) is refused whole. The refusal names the offending field paths,
 * never their values, so a leaked credential cannot reach a log through the error.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { isRecord, issuePath } from '@wework/decode-issues';
import type { BridgeError, BridgeInvocationName } from './BridgeError.js';
import { bridgeError } from './BridgeError.js';

const bounded = (name: string, max: number) =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && u.length <= max,
    (u, c) => (typeof u === 'string' && u.length <= max ? t.success(u) : t.failure(u, c)),
    t.identity,
  );

const HttpUrl = new t.Type<string, string, unknown>(
  'HttpUrl',
  (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' && u.length <= 4096 && /^https?:\/\/[^\s]+$/.test(u) ? t.success(u) : t.failure(u, c)),
  t.identity,
);

/** The status object of a bridge (unknown fields are dropped). */
export const BridgeStatus = t.exact(
  t.intersection([
    t.type({ status: t.keyof({ ok: null, needs_login: null, pending: null, error: null }) }),
    t.partial({
      /** What to render as a QR code (QR `start` and `poll`). */
      qr: t.exact(t.type({ payload: bounded('QrPayload', 4096) })),
      /** A URL the person may open by hand (browser OAuth). */
      url: HttpUrl,
      /** A short human-readable explanation. */
      message: bounded('Message', 1000),
      /** Who is logged in, for display. */
      account: bounded('Account', 200),
    }),
  ]),
  'BridgeStatus',
);
/** See {@link BridgeStatus}. */
export type BridgeStatus = t.TypeOf<typeof BridgeStatus>;

/** Default bound of a bridge's stdout: 64 KiB. */
export const DEFAULT_MAX_STDOUT_BYTES = 64 * 1024;

const SENSITIVE_KEY = /token|cookie|passw|secret|authori[sz]ation|session|credential|apikey|bearer|privatekey|jwt|otp/;
const SENSITIVE_VALUE = [
  /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.?/, // JWT header.payload
  /\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/i,
  /\b(?:glpat-|gho_|ghp_|ghs_|ghu_|github_pat_|xox[abpr]-|sk-)[A-Za-z0-9_-]{8,}/,
  /\b(?:access|refresh|id)_token=/i,
  /\bset-cookie\b/i,
];
const SAFE_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

const normalizeKey = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

const fieldName = (key: string): string => (SAFE_KEY.test(key) && !SENSITIVE_VALUE.some((regex) => regex.test(key)) ? key : '<key>');

/**
 * Field paths of everything credential-like in a parsed status, by key name or by value shape; empty
 * when there is none. The paths contain key names and indexes only.
 *
 * @example
 * ```ts
 * credentialFields({ status: 'ok', data: { access_token: 'x' } }); // ['data.access_token']
 * credentialFields({ status: 'ok', message: 'Bearer abcdefgh12345' }); // ['message']
 * ```
 */
export function credentialFields(value: unknown): string[] {
  const found: string[] = [];
  let budget = 10_000;
  const walk = (node: unknown, path: string, depth: number): void => {
    if (budget-- <= 0) return;
    if (typeof node === 'string') {
      if (SENSITIVE_VALUE.some((regex) => regex.test(node))) found.push(path || '(root)');
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    if (depth > 32) {
      found.push(path || '(root)'); // Too deep to inspect: refused rather than trusted.
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${path}[${index}]`, depth + 1));
      return;
    }
    for (const [key, item] of Object.entries(node)) {
      const child = path === '' ? fieldName(key) : `${path}.${fieldName(key)}`;
      if (SENSITIVE_KEY.test(normalizeKey(key)) || SENSITIVE_VALUE.some((regex) => regex.test(key))) found.push(child);
      else walk(item, child, depth + 1);
    }
  };
  walk(value, '', 0);
  if (budget < 0) found.push('(too large to inspect)');
  return found;
}

/** Splits text into its top-level JSON-looking values (objects, arrays, scalars between whitespace). */
function topLevelValues(text: string): string[] {
  const values: string[] = [];
  let index = 0;
  while (index < text.length && values.length < 16) {
    while (index < text.length && /\s/.test(text[index] ?? '')) index++;
    if (index >= text.length) break;
    const start = index;
    const open = text[index];
    if (open === '{' || open === '[') {
      let depth = 0;
      let inString = false;
      for (; index < text.length; index++) {
        const char = text[index];
        if (inString) {
          if (char === '\\') index++;
          else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === '{' || char === '[') depth++;
        else if (char === '}' || char === ']') {
          depth--;
          if (depth === 0) {
            index++;
            break;
          }
        }
      }
    } else {
      while (index < text.length && !/[\s{[]/.test(text[index] ?? '')) index++;
    }
    values.push(text.slice(start, index));
  }
  return values;
}

const tryParse = (text: string): E.Either<undefined, unknown> => {
  try {
    return E.right(JSON.parse(text) as unknown);
  } catch {
    return E.left(undefined);
  }
};

/** Where a status came from, for the errors. */
export interface StatusOrigin {
  readonly connector: string;
  readonly command: BridgeInvocationName;
}

/**
 * Reads the captured stdout of a bridge: exactly one JSON object that passes the credential check and
 * decodes as a {@link BridgeStatus}. Never throws; errors never contain the output.
 *
 * @example
 * ```ts
 * parseBridgeOutput('{"status":"ok"}\n', { connector: 'gitlab', command: 'health' }); // Right({ status: 'ok' })
 * parseBridgeOutput('{"status":"ok"}{"status":"ok"}', origin); // Left({ _tag: 'MultipleStatusObjects', count: 2, ... })
 * ```
 */
export function parseBridgeOutput(stdout: string, origin: StatusOrigin): E.Either<BridgeError, BridgeStatus> {
  const text = stdout.trim();
  if (text.length === 0) return E.left(bridgeError.noStatusObject(origin));
  const whole = tryParse(text);
  if (E.isLeft(whole)) {
    const values = topLevelValues(text);
    const objects = values.map(tryParse).filter((value) => E.isRight(value) && isRecord(value.right));
    if (values.length >= 2 && objects.length === values.length) return E.left(bridgeError.multipleStatusObjects(origin, values.length));
    return E.left(bridgeError.malformedStatus(origin, 'the output is not one JSON object'));
  }
  if (!isRecord(whole.right)) return E.left(bridgeError.malformedStatus(origin, 'the output is JSON but not an object'));
  const sensitive = credentialFields(whole.right);
  if (sensitive.length > 0) return E.left(bridgeError.credentialInStatus(origin, sensitive));
  const decoded = BridgeStatus.decode(whole.right);
  if (E.isLeft(decoded)) {
    const fields = [...new Set(decoded.left.map((error) => issuePath(error.context, { indices: 'omit' }) || 'status'))];
    return E.left(bridgeError.malformedStatus(origin, `invalid field(s): ${fields.map(fieldName).join(', ')}`));
  }
  return E.right(decoded.right);
}
