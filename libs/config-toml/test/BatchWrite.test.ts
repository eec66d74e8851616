import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecs, type JsonRecord, type JsonValue } from '@wework/codex-protocol';
import { applyConfigEdits, configEdits } from '../src/index.js';

/** A key: names seen in config.toml, a dotted one, or any short text. */
const key = fc.oneof(fc.constantFrom('features', 'mcp_servers', 'forms', 'command', 'tools', 'dotted.name', 'a b'), fc.string({ maxLength: 8 }));
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());

/** A parsed config: tables nested up to three deep, with scalars and arrays of scalars as leaves. */
const { config: codexConfig } = fc.letrec<{ config: JsonRecord; value: JsonValue }>((tie) => ({
  config: fc.dictionary(key, tie('value'), { maxKeys: 4, depthIdentifier: 'config' }),
  value: fc.oneof({ depthSize: 'small', maxDepth: 3, depthIdentifier: 'config' }, scalar, fc.array(scalar, { maxLength: 3 }), tie('config')),
}));

describe('configEdits', () => {
  it('are the smallest replace edits, null for removed keys', () => {
    expect(
      configEdits(
        { model: 'x', features: { plugins: false }, mcp_servers: { a: { command: 'old', tools: { t: { approval_mode: 'auto' } } } } },
        { model: 'x', features: { plugins: false, tool_call_mcp_elicitation: false }, mcp_servers: { a: { command: 'new' }, b: { command: 'b' } } },
      ),
    ).toEqual([
      { keyPath: 'features.tool_call_mcp_elicitation', value: false, mergeStrategy: 'replace' },
      { keyPath: 'mcp_servers.a.command', value: 'new', mergeStrategy: 'replace' },
      { keyPath: 'mcp_servers.a.tools', value: null, mergeStrategy: 'replace' },
      { keyPath: 'mcp_servers.b', value: { command: 'b' }, mergeStrategy: 'replace' },
    ]);
  });

  it('applied to the old config give the new one; none when nothing changed; valid ConfigEdit values', () => {
    fc.assert(
      fc.property(codexConfig, codexConfig, (before, after) => {
        const edits = configEdits(before, after);
        expect(applyConfigEdits(before, edits)).toEqual(E.right(after));
        expect(configEdits(after, after)).toEqual([]);
        for (const edit of edits) expect(E.isRight(codecs.ConfigEdit.decode(edit))).toBe(true);
      }),
    );
  });
});

describe('applyConfigEdits', () => {
  it('models Codex: replace sets, null deletes, upsert merges tables', () => {
    const config = { mcp_servers: { a: { command: 'old', args: ['x'], tools: { t: {} } } } };
    expect(
      applyConfigEdits(config, [
        { keyPath: 'mcp_servers.a', value: { command: 'new' }, mergeStrategy: 'upsert' },
        { keyPath: 'mcp_servers.a.tools', value: null, mergeStrategy: 'replace' },
        { keyPath: 'features.tool_call_mcp_elicitation', value: false, mergeStrategy: 'replace' },
      ]),
    ).toEqual(E.right({ mcp_servers: { a: { command: 'new', args: ['x'] } }, features: { tool_call_mcp_elicitation: false } }));
    expect(applyConfigEdits({ a: 1 }, [{ keyPath: 'a.b', value: 2, mergeStrategy: 'replace' }])).toMatchObject(E.left({ _tag: 'KeyPathThroughValue' }));
    expect(applyConfigEdits({}, [{ keyPath: 'a..b', value: 2, mergeStrategy: 'replace' }])).toMatchObject(E.left({ _tag: 'InvalidKeyPath' }));
  });
});
