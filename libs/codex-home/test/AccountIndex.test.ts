import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAccountIndex, emptyAccountIndex, encodeAccountIndex } from '../src/AccountIndex.js';
import { utf8 } from '../src/internal/Bytes.js';
import { accountIndexArbitrary } from '../src/testing.js';

const PATH = '/wework/codex/wework-account-profiles/index.json';

describe('the account index file', () => {
  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(accountIndexArbitrary, (index) => {
        expect(decodeAccountIndex(encodeAccountIndex(index), PATH)).toEqual(E.right(index));
      }),
    );
  });

  it('never throws on arbitrary bytes or JSON', () => {
    fc.assert(fc.property(fc.uint8Array(), (bytes) => typeof decodeAccountIndex(bytes, PATH)._tag === 'string'));
    fc.assert(fc.property(fc.json(), (text) => typeof decodeAccountIndex(utf8(text), PATH)._tag === 'string'));
  });

  it('is corrupt with duplicate ids, a path as snapshot name, or another version', () => {
    const entry = { id: 'a', kind: 'apiKey', authMode: null, email: null, planType: null, chatgptAccountId: null, chatgptUserId: null, snapshot: `account-${'0'.repeat(32)}.json`, digest: 'd' };
    const corrupt = E.left({ _tag: 'CorruptAccountIndex', path: PATH });
    expect(decodeAccountIndex(utf8(JSON.stringify({ version: 1, accounts: [entry] })), PATH)._tag).toBe('Right');
    expect(decodeAccountIndex(utf8(JSON.stringify({ version: 1, accounts: [entry, entry] })), PATH)).toEqual(corrupt);
    expect(decodeAccountIndex(utf8(JSON.stringify({ version: 1, accounts: [{ ...entry, snapshot: '../../auth.json' }] })), PATH)).toEqual(corrupt);
    expect(decodeAccountIndex(utf8(JSON.stringify({ version: 2, accounts: [] })), PATH)).toEqual(corrupt);
  });

  it('drops unknown fields', () => {
    const decoded = decodeAccountIndex(utf8(JSON.stringify({ ...emptyAccountIndex, extra: 'token' })), PATH);
    expect(decoded).toEqual(E.right(emptyAccountIndex));
  });
});
