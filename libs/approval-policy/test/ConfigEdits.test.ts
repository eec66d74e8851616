import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecs } from '@wework/codex-protocol';
import { applyConfigEdits, configEdits, formatKeyPath, parseKeyPath } from '@wework/config-toml';
import { codexConfigArbitrary } from '../src/testing.js';

describe('key paths', () => {
  it('quote only segments that are not bare keys', () => {
    expect(formatKeyPath(['mcp_servers', 'wegent_apps', 'default_tools_approval_mode'])).toBe('mcp_servers.wegent_apps.default_tools_approval_mode');
    expect(formatKeyPath(['mcp_servers', 'dotted.name', 'command'])).toBe('mcp_servers."dotted.name".command');
    expect(formatKeyPath(['a b', '', 'q"x'])).toBe('"a b"."".' + '"q\\"x"');
  });

  it('parse back what they format (round trip)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (segments) => {
        expect(parseKeyPath(formatKeyPath(segments))).toEqual(E.right(segments));
      }),
    );
  });

  it('refuse malformed paths without throwing', () => {
    for (const bad of ['', 'a.', '.a', 'a..b', '"a', 'a b', '"a"b']) expect(parseKeyPath(bad)._tag, bad).toBe('Left');
    fc.assert(
      fc.property(fc.string(), (text) => {
        parseKeyPath(text);
      }),
    );
  });
});

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
      fc.property(codexConfigArbitrary, codexConfigArbitrary, (before, after) => {
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
