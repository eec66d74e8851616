import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { REDACTED, describeRejection, isCredentialHeader, rejectionStatus, sanitizeHeaders, type RequestRejection } from '../src/RecordedRequest.js';

describe('sanitizeHeaders', () => {
  it('redacts credentials and keeps everything else', () => {
    expect(
      sanitizeHeaders({
        Authorization: 'Bearer sk-secret',
        cookie: 'session=abc',
        'x-api-key': 'k',
        'openai-api-key': 'k2',
        'x-auth-token': 't',
        accept: 'text/event-stream',
        'x-codex-turn-metadata': '{"turn_id":"t1"}',
        'set-cookie': ['a=1', 'b=2'],
        'x-multi': ['1', '2'],
        absent: undefined,
      }),
    ).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      'x-api-key': REDACTED,
      'openai-api-key': REDACTED,
      'x-auth-token': REDACTED,
      accept: 'text/event-stream',
      'x-codex-turn-metadata': '{"turn_id":"t1"}',
      'set-cookie': REDACTED,
      'x-multi': '1, 2',
    });
  });

  it('never lets a credential value through, whatever the casing', () => {
    const credentialName = fc
      .constantFrom('authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api_key', 'x-session-token', 'client-secret')
      .chain((name) => fc.constantFrom(name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1)));
    fc.assert(
      fc.property(credentialName, fc.string({ minLength: 1 }), fc.dictionary(fc.stringMatching(/^x-[a-z]{1,8}$/), fc.string()), (name, secret, others) => {
        const out = sanitizeHeaders({ ...others, [name]: `Bearer ${secret}` });
        expect(out[name.toLowerCase()]).toBe(REDACTED);
        expect(Object.values(out)).not.toContain(`Bearer ${secret}`);
      }),
    );
  });

  it('classifies credential header names', () => {
    expect(isCredentialHeader('Authorization')).toBe(true);
    expect(isCredentialHeader('content-type')).toBe(false);
    expect(isCredentialHeader('x-codex-turn-metadata')).toBe(false);
  });
});

describe('rejections', () => {
  it('map to an HTTP status and a message', () => {
    const cases: ReadonlyArray<readonly [RequestRejection, number, string]> = [
      [{ _tag: 'UnexpectedRoute', method: 'GET', path: '/x' }, 404, 'no route for GET /x'],
      [{ _tag: 'UnsupportedEncoding', encoding: 'zstd' }, 415, 'unsupported content-encoding "zstd"'],
      [{ _tag: 'BodyTooLarge', limitBytes: 10 }, 413, 'larger than 10 bytes'],
      [{ _tag: 'BodyNotJson', message: 'bad' }, 400, 'not JSON: bad'],
      [{ _tag: 'NotAResponsesRequest', issues: [{ path: 'body.model', expected: 'string', actual: 'nothing (missing)' }] }, 400, 'body.model: expected string, got nothing (missing)'],
      [{ _tag: 'ScriptExhausted', scriptLength: 2 }, 410, 'all 2 responses were used'],
    ];
    for (const [rejection, status, text] of cases) {
      expect(rejectionStatus(rejection)).toBe(status);
      expect(describeRejection(rejection)).toContain(text);
    }
  });
});
