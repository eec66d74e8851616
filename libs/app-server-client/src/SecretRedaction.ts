/**
 * Makes a process' diagnostic text (the app-server's stderr tail) safe to show to a host or a log:
 * anything that looks like a credential — bearer and basic authorization values, JWTs, API keys with
 * a known prefix, `token=`/`api_key: ` style assignments, JSON fields named like secrets — is replaced
 * by `[redacted]`, and the text is bounded to its last characters.
 *
 * Every function is pure: text in, text out.
 */

/** What a redacted secret is replaced with. */
export const REDACTED_MARK = '[redacted]';

/** The default bound of a shown stderr tail: 2,000 characters. */
export const DEFAULT_SHOWN_TAIL_CHARS = 2_000;

const KEY_WORDS = String.raw`(?:[A-Za-z0-9_-]*(?:token|secret|passw(?:or)?d|api[_-]?key|apikey|authorization|cookie|credential|private[_-]?key|session)[A-Za-z0-9_-]*)`;

/** Each pattern's first group (when present) is kept: the name in front of the secret. */
const PATTERNS: ReadonlyArray<RegExp> = [
  // "access_token": "...", 'api_key': '...'
  new RegExp(String.raw`(["']${KEY_WORDS}["']\s*:\s*)"(?:[^"\\]|\\.)*"`, 'gi'),
  new RegExp(String.raw`(["']${KEY_WORDS}["']\s*:\s*)'(?:[^'\\]|\\.)*'`, 'gi'),
  // authorization: Bearer xyz, Basic xyz
  /(\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{6,}/gi,
  // token=xyz, api_key: xyz, OPENAI_API_KEY=xyz
  new RegExp(String.raw`(\b${KEY_WORDS}\s*[=:]\s*)(?!(?:bearer|basic)\s)[^\s"',;&]{4,}`, 'gi'),
  // JWTs (header.payload[.signature])
  /()eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?/g,
  // API keys with a known prefix (OpenAI, GitHub, Slack, GitLab)
  /()(?:sk-|sess-|rk-|ghp_|gho_|ghs_|ghu_|github_pat_|glpat-|xox[abpr]-)[A-Za-z0-9_-]{8,}/g,
];

/**
 * Replaces everything credential-like in `text` with {@link REDACTED_MARK}, keeping the names in front
 * of the secrets.
 *
 * @example
 * ```ts
 * import { redactSecrets } from '@wework/app-server-client';
 * redactSecrets('request failed: Authorization: Bearer abc.def.ghi123'); // 'request failed: Authorization: Bearer [redacted]'
 * ```
 */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const pattern of PATTERNS) redacted = redacted.replace(pattern, (_match, name: string | undefined) => `${name ?? ''}${REDACTED_MARK}`);
  return redacted;
}

/**
 * The last `maxChars` characters of a diagnostic text, redacted. Redaction runs on the whole text
 * before the cut, so a secret cut in half cannot survive as its recognisable half.
 *
 * @example
 * ```ts
 * import { shownTail } from '@wework/app-server-client';
 * shownTail('x'.repeat(5000) + ' api_key=abcdef123', 40).endsWith('api_key=[redacted]'); // true
 * ```
 */
export function shownTail(text: string, maxChars: number = DEFAULT_SHOWN_TAIL_CHARS): string {
  const redacted = redactSecrets(text);
  const bound = Math.max(0, maxChars);
  if (redacted.length <= bound) return redacted;
  const cut = redacted.slice(redacted.length - bound);
  // Start at a line boundary when there is one, so the tail does not begin with half a line.
  const newline = cut.indexOf('\n');
  return newline >= 0 && newline < cut.length - 1 ? cut.slice(newline + 1) : cut;
}
