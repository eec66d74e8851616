import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCodexEnablement, setCodexEnablement } from '../src/ConfigToml.js';

const key = 'forms@wework';
const base = '# keep this comment\nmodel = "gpt-5"  # and this one\n\n[features]\nplugins = true\n';

describe('setCodexEnablement', () => {
  it('appends the plugin table and removes it again, byte for byte', () => {
    const added = setCodexEnablement(base, key, true);
    expect(added).toEqual(E.right(`${base}\n[plugins."forms@wework"]\nenabled = true\n`));
    expect(setCodexEnablement(E.isRight(added) ? added.right : '', key, null)).toEqual(E.right(base));
  });

  it('flips the value in place, keeping a comment and the rest of the table', () => {
    const text = `${base}\n[plugins."forms@wework"]\nenabled = true # on\nskills = ["a"]\n\n[plugins."other@x"]\nenabled = true\n`;
    expect(setCodexEnablement(text, key, false)).toEqual(E.right(text.replace('enabled = true # on', 'enabled = false # on')));
    expect(setCodexEnablement(text, key, true)).toEqual(E.right(text));
  });

  it('finds the table however its header is quoted', () => {
    const text = "[plugins.'forms@wework']\nother = 1\n";
    expect(setCodexEnablement(text, key, false)).toEqual(E.right("[plugins.'forms@wework']\nenabled = false\nother = 1\n"));
  });

  it('keeps CRLF line endings', () => {
    expect(setCodexEnablement('a = 1\r\n', key, true)).toEqual(E.right('a = 1\r\n\r\n[plugins."forms@wework"]\r\nenabled = true\r\n'));
  });

  it('refuses layouts it cannot edit safely instead of corrupting them', () => {
    expect(setCodexEnablement('[plugins]\n"forms@wework" = { enabled = true }\n', key, null)).toEqual(E.left({ _tag: 'UnsupportedConfigLayout', file: 'config.toml', key }));
  });

  it('edits the enablement written as a dotted key, where it is', () => {
    const dotted = '# mine\nplugins."forms@wework".enabled = true # on\nplugins."forms@wework".skills = ["a"]\nmodel = "m"\n';
    expect(setCodexEnablement(dotted, key, false)).toEqual(E.right(dotted.replace('enabled = true # on', 'enabled = false # on')));
    expect(setCodexEnablement(dotted, key, true)).toEqual(E.right(dotted));
    expect(setCodexEnablement(dotted, key, null)).toEqual(E.right('# mine\nmodel = "m"\n'));
    const withoutEnabled = 'plugins."forms@wework".skills = ["a"]\n';
    expect(setCodexEnablement(withoutEnabled, key, true)).toEqual(E.right('plugins."forms@wework".skills = ["a"]\nplugins."forms@wework".enabled = true\n'));
    expect(readCodexEnablement(dotted, key)).toEqual(E.right(true));
  });

  it('reports TOML that does not parse', () => {
    expect(setCodexEnablement('a = "x\n', key, true)).toMatchObject({ left: { _tag: 'ParseFailed', file: 'config.toml' } });
  });

  it('property: set then read gives the value; set then remove restores the text; other plugins keep their bytes', () => {
    const other = fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}@[a-z]{1,6}$/), enabled: fc.boolean() });
    fc.assert(
      fc.property(fc.array(other, { maxLength: 4 }), fc.boolean(), fc.boolean(), (others, first, second) => {
        const unique = others.filter((o, i) => o.name !== key && others.findIndex((p) => p.name === o.name) === i);
        const text = base + unique.map((o) => `\n[plugins."${o.name}"]\nenabled = ${o.enabled}\n`).join('');
        const once = setCodexEnablement(text, key, first);
        if (E.isLeft(once)) return false;
        const twice = setCodexEnablement(once.right, key, second);
        if (E.isLeft(twice)) return false;
        expect(readCodexEnablement(twice.right, key)).toEqual(E.right(second));
        expect(twice.right.startsWith(text)).toBe(true);
        expect(setCodexEnablement(twice.right, key, null)).toEqual(E.right(text));
        return true;
      }),
    );
  });
});
