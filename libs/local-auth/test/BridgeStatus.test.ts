import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { credentialFields, parseBridgeOutput } from '../src/BridgeStatus.js';
import { bridgeStatusArbitrary } from '../src/testing.js';

const origin = { connector: 'glab', command: 'health' } as const;
const tagOf = (stdout: string) => {
  const parsed = parseBridgeOutput(stdout, origin);
  return E.isLeft(parsed) ? parsed.left._tag : parsed.right.status;
};

describe('parseBridgeOutput', () => {
  it('accepts exactly one status object, surrounded by whitespace', () => {
    expect(parseBridgeOutput('\n {"status":"pending","qr":{"payload":"https://x.example/qr"},"extra":1}\n', origin)).toEqual(
      E.right({ status: 'pending', qr: { payload: 'https://x.example/qr' } }),
    );
  });

  it.each([
    ['', 'NoStatusObject'],
    ['   \n', 'NoStatusObject'],
    ['{"status":"ok"}{"status":"ok"}', 'MultipleStatusObjects'],
    ['{"status":"ok"}\n{"status":"needs_login"}\n', 'MultipleStatusObjects'],
    ['Logged in as ada', 'MalformedStatus'],
    ['{"status":"ok"} trailing', 'MalformedStatus'],
    ['[{"status":"ok"}]', 'MalformedStatus'],
    ['"ok"', 'MalformedStatus'],
    ['{"status":"maybe"}', 'MalformedStatus'],
    ['{"status":"ok","url":"javascript:alert(1)"}', 'MalformedStatus'],
    ['{"status":"ok","access_token":"x"}', 'CredentialInStatus'],
  ])('%j → %s', (stdout, tag) => {
    expect(tagOf(stdout)).toBe(tag);
  });

  it('refuses credentials by key at any depth and by value shape, naming fields only', () => {
    const canary = 'CANARY-7f3a';
    const cases = [
      { status: 'ok', data: { nested: [{ refresh_token: canary }] } },
      { status: 'ok', Cookie: canary },
      { status: 'ok', sessionId: canary },
      { status: 'ok', clientSecret: canary },
      { status: 'ok', headers: { Authorization: canary } },
      { status: 'ok', message: `Bearer ${canary}abcdefgh` },
      { status: 'ok', message: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx${canary}.sig` },
      { status: 'ok', account: `glpat-${canary}xxxxxxxx` },
      { status: 'pending', qr: { payload: `https://x.example/cb?access_token=${canary}` } },
      { status: 'ok', [`eyJhbGciOiJIUzI1NiJ9.eyJ${canary}`]: 1 },
    ];
    for (const status of cases) {
      const parsed = parseBridgeOutput(JSON.stringify(status), origin);
      expect(E.isLeft(parsed) && parsed.left._tag).toBe('CredentialInStatus');
      expect(JSON.stringify(parsed)).not.toContain(canary);
    }
    expect(credentialFields({ status: 'ok', data: { nested: [{ refresh_token: 'x' }] } })).toEqual(['data.nested[0].refresh_token']);
  });

  it('decodes every clean status and never throws on arbitrary text or JSON', () => {
    fc.assert(fc.property(bridgeStatusArbitrary, (status) => {
      expect(parseBridgeOutput(JSON.stringify(status), origin)).toEqual(E.right(status));
    }));
    fc.assert(fc.property(fc.string(), (text) => void parseBridgeOutput(text, origin)));
    fc.assert(fc.property(fc.jsonValue(), (value) => void parseBridgeOutput(JSON.stringify(value), origin)));
  });

  it('never puts any of the output into an error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.stringMatching(/^[A-Z]{12}$/), (value, marker) => {
        const text = `${JSON.stringify(value)} ${marker}`;
        const parsed = parseBridgeOutput(text, origin);
        if (E.isLeft(parsed)) expect(JSON.stringify(parsed.left)).not.toContain(marker);
      }),
    );
  });
});
