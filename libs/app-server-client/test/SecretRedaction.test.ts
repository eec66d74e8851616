import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED_MARK, redactSecrets, shownTail } from '../src/SecretRedaction.js';

const secretChars = fc.stringMatching(/^[A-Za-z0-9]{16,40}$/);

/** A credential in one of the shapes a log line carries it, with the secret part. */
const credential = fc.tuple(
  secretChars,
  fc.constantFrom(
    (s: string) => `Authorization: Bearer ${s}`,
    (s: string) => `authorization: basic ${s}`,
    (s: string) => `"access_token":"${s}"`,
    (s: string) => `'refresh_token': '${s}'`,
    (s: string) => `OPENAI_API_KEY=${s}`,
    (s: string) => `api_key: ${s}`,
    (s: string) => `sk-proj-${s}`,
    (s: string) => `ghp_${s}`,
    (s: string) => `eyJhbGciOi${s}.eyJzdWIi${s}.${s}`,
    (s: string) => `?token=${s}&x=1`,
  ),
);

const noise = fc.stringMatching(/^[a-z .:\n]{0,60}$/);

describe('secret redaction of diagnostic text', () => {
  it('redacts the usual shapes and keeps the names in front of them', () => {
    expect(redactSecrets('WARN request failed: Authorization: Bearer abcdef0123456789')).toBe(`WARN request failed: Authorization: Bearer ${REDACTED_MARK}`);
    expect(redactSecrets('retrying with bearer abcdef0123456789')).toBe(`retrying with bearer ${REDACTED_MARK}`);
    expect(redactSecrets('{"auth_mode":"apikey","OPENAI_API_KEY":"sk-abcdefgh12345678"}')).toBe(`{"auth_mode":"apikey","OPENAI_API_KEY":${REDACTED_MARK}}`);
    expect(redactSecrets('plain text, nothing hidden: exit code 1')).toBe('plain text, nothing hidden: exit code 1');
  });

  it('property: no secret survives, whatever surrounds it', () => {
    fc.assert(
      fc.property(noise, credential, noise, (before, [secret, shape], after) => {
        const text = `${before}${shape(secret)}${after}`;
        expect(redactSecrets(text)).not.toContain(secret);
        expect(shownTail(text, 30)).not.toContain(secret);
      }),
    );
  });

  it('property: redaction is idempotent and a shown tail is bounded', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 0, max: 200 }), (text, max) => {
        const once = redactSecrets(text);
        expect(redactSecrets(once)).toBe(once);
        expect(shownTail(text, max).length).toBeLessThanOrEqual(max);
      }),
    );
  });
});
