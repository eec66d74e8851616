import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { applyVerified, readDocument, removeKey, removeTable, setKey } from '../src/index.js';

const enabled = ['plugins', 'p@m', 'enabled'];

describe('setKey', () => {
  it('changes a value where it is written, in a [table] or as a dotted key, keeping its comment', () => {
    expect(setKey('[plugins."p@m"]\nenabled = true # on\n', enabled, false)).toEqual(E.right('[plugins."p@m"]\nenabled = false # on\n'));
    expect(setKey('plugins."p@m".enabled = true # on\n', enabled, false)).toEqual(E.right('plugins."p@m".enabled = false # on\n'));
    expect(setKey("[plugins]\n'p@m'.enabled = true\n", enabled, false)).toEqual(E.right("[plugins]\n'p@m'.enabled = false\n"));
  });

  it('adds a key to the table that holds its siblings, after them or first', () => {
    expect(setKey('[t]\na = 1\n\n[u]\n', ['t', 'b'], 2)).toEqual(E.right('[t]\na = 1\nb = 2\n\n[u]\n'));
    expect(setKey('[t]\na = 1\n', ['t', 'b'], 2, { placement: 'start' })).toEqual(E.right('[t]\nb = 2\na = 1\n'));
    expect(setKey('plugins."p@m".skills = []\n', enabled, true)).toEqual(E.right('plugins."p@m".skills = []\nplugins."p@m".enabled = true\n'));
    expect(setKey('a = 1\n[t]\n', ['b'], 'x y')).toEqual(E.right('a = 1\nb = "x y"\n[t]\n'));
  });

  it('appends a new table when none holds the key, quoting keys that are not bare', () => {
    expect(setKey('a = 1', ['mcp_servers', 'dotted.name', 'command'], 'x')).toEqual(E.right('a = 1\n\n[mcp_servers."dotted.name"]\ncommand = "x"\n'));
    expect(setKey('', enabled, true)).toEqual(E.right('[plugins."p@m"]\nenabled = true\n'));
  });

  it('returns the text unchanged when it already holds the value', () => {
    const text = '# c\nplugins."p@m".enabled = true\n';
    expect(setKey(text, enabled, true)).toEqual(E.right(text));
  });

  it('refuses to rewrite inline values, arrays of tables and tables, and malformed TOML', () => {
    expect(setKey('plugins = { "p@m" = { enabled = true } }\n', enabled, false)).toMatchObject({ left: { _tag: 'UnsupportedLayout', path: enabled } });
    expect(setKey('[[hooks]]\nname = "a"\n', ['hooks', 'name'], 'b')).toMatchObject({ left: { _tag: 'UnsupportedLayout' } });
    expect(setKey('[t]\na = 1\n', ['t'], 1)).toMatchObject({ left: { _tag: 'UnsupportedLayout' } });
    expect(setKey('a = "x\n', ['a'], 1)).toMatchObject({ left: { _tag: 'MalformedConfig', line: 1 } });
  });
});

describe('removeKey and removeTable', () => {
  it('remove a key line with its comment, nothing else', () => {
    expect(removeKey('# a\nx = 1 # one\ny = 2\n', ['x'])).toEqual(E.right('# a\ny = 2\n'));
    expect(removeKey('y = 2\n', ['x'])).toEqual(E.right('y = 2\n'));
  });

  it('remove a table written with a header, as dotted keys, or both, with its sub-tables', () => {
    expect(removeTable('a = 1\n\n[plugins."p@m"]\nenabled = true\n\n[plugins."p@m".sub]\nx = 1\n', ['plugins', 'p@m'])).toEqual(E.right('a = 1\n'));
    expect(removeTable('plugins."p@m".enabled = true\nb = 2\nplugins."q@m".enabled = true\n', ['plugins', 'p@m'])).toEqual(E.right('b = 2\nplugins."q@m".enabled = true\n'));
  });

  it('refuse a table written as an inline value', () => {
    expect(removeTable('[plugins]\n"p@m" = { enabled = true }\n', ['plugins', 'p@m'])).toMatchObject({ left: { _tag: 'UnsupportedLayout' } });
  });
});

describe('applyVerified', () => {
  it('refuses an edit that changes a key it does not claim, and one whose value reads differently', () => {
    const read = readDocument('a = 1\nb = 2\n');
    if (E.isLeft(read)) throw new Error(read.left._tag);
    expect(applyVerified(read.right, [{ start: 4, end: 5, text: '3' }], [{ path: ['b'], value: 3 }])).toEqual(E.left({ _tag: 'EditNotVerified', message: '`b` does not read back as intended' }));
    expect(applyVerified(read.right, [{ start: 4, end: 5, text: '3' }], [])).toEqual(E.left({ _tag: 'EditNotVerified', message: 'the edit changed a key it does not own' }));
    expect(applyVerified(read.right, [{ start: 4, end: 5, text: '"' }], [])).toMatchObject({ left: { _tag: 'EditNotVerified' } });
    expect(applyVerified(read.right, [{ start: 4, end: 5, text: '3' }], [{ path: ['a'], value: 3 }])).toEqual(E.right('a = 3\nb = 2\n'));
  });
});
