/**
 * The example at the top of README.md, kept compiling and passing.
 */
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import { configDiff, configEdits, removeTable, setKey } from '../src/index.js';

test('README example', () => {
  // --- README example begins ---
  const text = '# mine\nmodel = "gpt-5" # pinned\n\n[plugins."forms@wework"]\nenabled = true\n';

  // Change a value where it is written: the comment and every other byte stay.
  const off = setKey(text, ['plugins', 'forms@wework', 'enabled'], false);
  // Right('# mine\nmodel = "gpt-5" # pinned\n\n[plugins."forms@wework"]\nenabled = false\n')

  // The dotted form is the same key path.
  const dotted = setKey('plugins."forms@wework".enabled = true\n', ['plugins', 'forms@wework', 'enabled'], false);
  // Right('plugins."forms@wework".enabled = false\n')

  // Remove a whole table, with the blank line before it.
  const removed = removeTable(text, ['plugins', 'forms@wework']);
  // Right('# mine\nmodel = "gpt-5" # pinned\n')

  // What changed between two versions, and the config/batchWrite edits of two values.
  const changed = configDiff(text, E.isRight(off) ? off.right : null); // [['plugins', 'forms@wework', 'enabled']]
  const edits = configEdits({ features: { apps: true } }, { features: { apps: false } });
  // [{ keyPath: 'features.apps', value: false, mergeStrategy: 'replace' }]
  // --- README example ends ---

  expect(off).toEqual(E.right('# mine\nmodel = "gpt-5" # pinned\n\n[plugins."forms@wework"]\nenabled = false\n'));
  expect(dotted).toEqual(E.right('plugins."forms@wework".enabled = false\n'));
  expect(removed).toEqual(E.right('# mine\nmodel = "gpt-5" # pinned\n'));
  expect(changed).toEqual([['plugins', 'forms@wework', 'enabled']]);
  expect(edits).toEqual([{ keyPath: 'features.apps', value: false, mergeStrategy: 'replace' }]);
});
