import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKeyPath, parseKeyPath } from '../src/index.js';

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
