/**
 * What leaves the process describes a client error by its category: never the peer's or the OS's own text.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeClientErrorCategory, type ClientError } from '../src/index.js';

/** Foreign text as Codex or the OS writes it: paths, and a marker standing for anything a request carried. */
const foreign = fc.oneof(
  fc.constantFrom('/home/ada/.wework/codex/config.toml', 'C:\\Users\\ada\\config.toml', '../secret', 'sk-live-Qz7vX3'),
  fc.string({ minLength: 1, maxLength: 12 }).map((s) => `/tmp/${s}/x`),
);

const clientError: fc.Arbitrary<ClientError> = fc.oneof(
  fc.record({ method: fc.constantFrom('config/read', 'thread/start'), code: fc.integer(), message: foreign }).map((e) => ({ _tag: 'RequestFailed' as const, ...e })),
  fc.record({ method: fc.constant('config/batchWrite'), message: foreign }).map((e) => ({ _tag: 'EncodeFailed' as const, ...e })),
  fc.record({ line: foreign, reason: foreign }).map((e) => ({ _tag: 'MalformedMessage' as const, ...e })),
  foreign.map((message) => ({ _tag: 'TransportError' as const, message })),
);

describe('describeClientErrorCategory', () => {
  it('never carries the foreign text of the error: no path, nothing the request or the peer wrote', () => {
    fc.assert(
      fc.property(clientError, (error) => {
        const described = describeClientErrorCategory(error);
        for (const value of Object.values(error)) if (typeof value === 'string' && value !== error._tag && !('method' in error && value === error.method)) expect(described).not.toContain(value);
        expect(described).not.toMatch(/[/\\][^ ]*[/\\]/);
      }),
    );
  });

  it('keeps the method and the wire code', () => {
    expect(describeClientErrorCategory({ _tag: 'RequestFailed', method: 'config/read', code: -32603, message: 'failed to load /home/ada/.codex/config.toml' })).toBe('config/read failed with -32603');
  });
});
