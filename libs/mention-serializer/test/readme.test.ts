/**
 * The example at the top of README.md, kept compiling and passing: the block between the markers
 * below must be the README's first TypeScript block (after its imports), line for line.
 */
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import { app, parse, plugin, serialize, skill, text, tokenize, toTurnInput } from '../src/index.js';

test('README example', () => {
  // --- README example begins ---
  const doc = [text('Summarise '), skill('pdf', '/home/me/.codex/skills/pdf/SKILL.md'), text(' into '), app('Drive', 'connector_drive'), text(' via '), plugin('Sites', 'wegent-sites', 'wegent')];
  const markdown = serialize(doc);
  // 'Summarise [$pdf](/home/me/.codex/skills/pdf/SKILL.md) into [$Drive](app://connector_drive) via [@Sites](plugin://wegent-sites@wegent)'
  parse(markdown); // equals doc
  tokenize(markdown).map((t) => (t._tag === 'Text' ? t.text : `<badge ${t.mention.name}>`)); // for a stored message
  toTurnInput(markdown); // right([{ type: 'text', text: markdown, text_elements: [...] }, { type: 'skill', ... }, { type: 'mention', ... }, ...])
  // --- README example ends ---

  expect(markdown).toBe('Summarise [$pdf](/home/me/.codex/skills/pdf/SKILL.md) into [$Drive](app://connector_drive) via [@Sites](plugin://wegent-sites@wegent)');
  expect(parse(markdown)).toEqual(doc);
  expect(tokenize(markdown).map((t) => (t._tag === 'Text' ? t.text : `<badge ${t.mention.name}>`))).toEqual([
    'Summarise ', '<badge pdf>', ' into ', '<badge Drive>', ' via ', '<badge Sites>',
  ]);
  expect(toTurnInput(markdown)).toMatchObject(
    E.right([
      { type: 'text', text: markdown },
      { type: 'skill', name: 'pdf', path: '/home/me/.codex/skills/pdf/SKILL.md' },
      { type: 'mention', name: 'Drive', path: 'app://connector_drive' },
      { type: 'mention', name: 'Sites', path: 'plugin://wegent-sites@wegent' },
    ]),
  );
});
