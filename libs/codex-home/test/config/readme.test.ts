/**
 * The example of the README's config.toml section, kept compiling and passing.
 */
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import {
  composeDeveloperInstructions,
  freshConfigText,
  importNativeConfig,
  normalizeConfig,
  developerInstructionsEdit,
  personalityEdit,
  userCopyOf,
} from '../../src/config/index.js';

test('README example', () => {
  // --- README example begins ---
  // Before the app-server starts: normalize the Wework home's config.toml (or create it).
  const result = normalizeConfig('# mine\ninstructions = "Be brief." # legacy\n\n[features]\nplugins = false\n');
  if (E.isLeft(result)) throw new Error(result.left._tag); // MalformedConfig { line, column, message }: leave the file alone
  const { text, changes } = result.right; // write `text` back only when `changes` is not empty
  // text: '# mine\ndeveloper_instructions = "Be brief." # legacy\npersonality = "pragmatic"\n\n[features]\nplugins = false\n'
  // changes: [{ _tag: 'InstructionsRenamed' }, { _tag: 'PersonalityAdded', personality: 'pragmatic' }]
  freshConfigText(); // 'personality = "pragmatic"\n' — for a missing config.toml

  // First-start migration or manual import of ~/.codex/config.toml: the top-level model goes, the rest stays.
  importNativeConfig('model = "o3"\nmodel_provider = "azure"\n'); // Right({ text: 'model_provider = "azure"\npersonality = "pragmatic"\n', ... })

  // Settings → Context and the interaction style, through config/batchWrite and config/read.
  const routing = 'Open web pages in the Wework embedded browser.';
  const instructions = developerInstructionsEdit(composeDeveloperInstructions('Answer in French.', routing));
  const edits = [instructions, personalityEdit('friendly')];
  // client.request('config/batchWrite', { edits, reloadUserConfig: true })
  userCopyOf(instructions.value, routing); // 'Answer in French.' — what the settings page shows
  // --- README example ends ---

  expect(text).toBe('# mine\ndeveloper_instructions = "Be brief." # legacy\npersonality = "pragmatic"\n\n[features]\nplugins = false\n');
  expect(changes).toEqual([{ _tag: 'InstructionsRenamed' }, { _tag: 'PersonalityAdded', personality: 'pragmatic' }]);
  expect(freshConfigText()).toBe('personality = "pragmatic"\n');
  expect(importNativeConfig('model = "o3"\nmodel_provider = "azure"\n')).toMatchObject(E.right({ text: 'model_provider = "azure"\npersonality = "pragmatic"\n' }));
  expect(edits[1]).toEqual({ keyPath: 'personality', value: 'friendly', mergeStrategy: 'replace' });
  expect(userCopyOf(instructions.value, routing)).toBe('Answer in French.');
});
