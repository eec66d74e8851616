import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { app, normalize, parse, plugin, serialize, skill, text, tokenize, validateDocument } from '../src/index.js';
import { documentArbitrary, mentionArbitrary, trickyStringArbitrary } from '../src/testing.js';

describe('serialize', () => {
  test('writes the spec forms, plugins with the @ sigil', () => {
    expect(
      serialize([
        text('Use '),
        skill('pdf', '/home/me/.codex/skills/pdf/SKILL.md'),
        text(' with '),
        app('Drive', 'connector_google_drive'),
        text(' and '),
        plugin('Sites', 'wegent-sites', 'wegent'),
      ]),
    ).toBe('Use [$pdf](/home/me/.codex/skills/pdf/SKILL.md) with [$Drive](app://connector_google_drive) and [@Sites](plugin://wegent-sites@wegent)');
  });

  test('escapes labels with backslashes and targets with percent-encoding', () => {
    expect(serialize([skill('a [b] \\ c', '/My Skills/(x)/技能/SKILL.md')])).toBe(
      '[$a \\[b\\] \\\\ c](/My%20Skills/%28x%29/技能/SKILL.md)',
    );
    expect(serialize([plugin('p', 'a@b', 'm@n')])).toBe('[@p](plugin://a%40b@m@n)');
    expect(serialize([skill('w', 'C:\\Users\\me\\SKILL.md')])).toBe('[$w](C:\\Users\\me\\SKILL.md)');
  });

  test('uses the legacy skill:// form for absolute paths that are not SKILL.md', () => {
    expect(serialize([skill('notes', '/docs/notes.md')])).toBe('[$notes](skill:///docs/notes.md)');
  });

  test('escapes text that would read as a mention or an escape', () => {
    expect(serialize([text('[$x](app://y) and [link](https://a)')])).toBe('\\[$x](app://y) and [link](https://a)');
    expect(serialize([text('ends with \\'), app('a', 'b')])).toBe('ends with \\\\[$a](app://b)');
    expect(serialize([text('C:\\dir and \\\\share')])).toBe('C:\\dir and \\\\\\\\share');
  });
});

describe('parse', () => {
  test('reads every kind, both plugin sigils and the legacy skill form', () => {
    expect(
      parse('[$pdf](/s/pdf/SKILL.md)[$Drive](app://c1)[@Sites](plugin://wegent-sites@wegent)[$Old](plugin://p@m)[$legacy](skill:///s/x/SKILL.md)'),
    ).toEqual([
      skill('pdf', '/s/pdf/SKILL.md'),
      app('Drive', 'c1'),
      plugin('Sites', 'wegent-sites', 'wegent'),
      plugin('Old', 'p', 'm'),
      skill('legacy', '/s/x/SKILL.md'),
    ]);
  });

  test('keeps link look-alikes as text', () => {
    for (const markdown of [
      '[x](https://example.com)',
      '[$x](http://example.com)',
      '[$x](',
      '[$x](app://y',
      '[$x] (app://y)',
      '[$](app://y)',
      '[$x](app://)',
      '[$x](plugin://nomarket)',
      '[$x](plugin://@m)',
      '[$x](plugin://p@)',
      '[@x](app://y)',
      '[@x](/s/SKILL.md)',
      '[$x](relative/SKILL.md)',
      '[$x](/not/a/skill.txt)',
      '[$x](app://a b)',
      '[$x [y](app://z)',
      '\\[$x](app://y)',
    ]) {
      const doc = parse(markdown);
      expect(doc.every((s) => s._tag === 'Text'), markdown).toBe(true);
    }
  });

  test('a failed candidate does not hide a mention after it', () => {
    expect(parse('[$a](app://b [$c](app://d)')).toEqual([text('[$a](app://b '), app('c', 'd')]);
    expect(parse('[$a [$c](app://d)')).toEqual([text('[$a '), app('c', 'd')]);
  });

  test('decodes names and targets written with escapes', () => {
    expect(parse('[$a \\[b\\] \\\\ c](/My%20Skills/%28x%29/技能/SKILL.md)')).toEqual([skill('a [b] \\ c', '/My Skills/(x)/技能/SKILL.md')]);
    expect(parse('[@p](plugin://a%40b@m@n)')).toEqual([plugin('p', 'a@b', 'm@n')]);
    expect(parse('[$x](app://100%zz%E2)')).toEqual([app('x', '100%zz%E2')]);
  });
});

describe('laws', () => {
  test('parse(serialize(doc)) = normalize(doc)', () => {
    fc.assert(
      fc.property(documentArbitrary, (doc) => {
        expect(validateDocument(doc)._tag).toBe('Right');
        expect(parse(serialize(doc))).toEqual(normalize(doc));
      }),
      { numRuns: 500 },
    );
  });

  test('serialize(parse(serialize(doc))) = serialize(doc)', () => {
    fc.assert(
      fc.property(documentArbitrary, (doc) => {
        const markdown = serialize(doc);
        expect(serialize(parse(markdown))).toBe(markdown);
      }),
    );
  });

  test('mentions keep their order', () => {
    fc.assert(
      fc.property(fc.array(mentionArbitrary, { maxLength: 8 }), trickyStringArbitrary, (mentions, separator) => {
        const doc = mentions.flatMap((m) => [text(separator), m]);
        expect(parse(serialize(doc)).filter((s) => s._tag === 'Mention')).toEqual(mentions);
      }),
    );
  });

  test('parse and tokenize never throw, and tokens tile the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), trickyStringArbitrary, fc.string({ unit: 'binary-ascii' })), (markdown) => {
        const tokens = tokenize(markdown);
        parse(markdown);
        let cursor = 0;
        for (const token of tokens) {
          expect(token.source.start).toBe(cursor);
          expect(token.source.end).toBeGreaterThan(token.source.start);
          cursor = token.source.end;
        }
        expect(cursor).toBe(markdown.length);
      }),
      { numRuns: 500 },
    );
  });

  test('every mention token re-serializes to a mention that parses back to itself', () => {
    fc.assert(
      fc.property(trickyStringArbitrary, documentArbitrary, (noise, doc) => {
        const markdown = noise + serialize(doc);
        for (const token of tokenize(markdown)) {
          if (token._tag === 'Mention') expect(parse(serialize([token.mention]))).toEqual([token.mention]);
        }
      }),
    );
  });
});
