/**
 * Importing the user's native Codex config (`~/.codex/config.toml`) into the Wework Codex home, at
 * the first-start migration and on a later manual import.
 *
 * The top-level `model` is removed, so that the Wework runtime's model catalog decides the
 * default model; only that key: `model_provider`, `review_model`, a profile's `model`
 * (`[profiles.x] model = ...`) and every other byte stay. The result is then normalized like at
 * every startup (`normalizeConfig`). The native file itself is never changed: the caller writes
 * the returned text into the Wework home only.
 *
 * Every function here is pure: text in, text or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import { applyVerified, editNotVerified, findStatement, readDocument, removeStatement, type ConfigError } from '@wework/config-toml';
import { normalizeConfig, type ConfigChange, type ConfigWarning, type NormalizedConfig } from './NormalizeConfig.js';
import { hasOwnKey } from './internal/OwnKeys.js';

interface WithoutModel {
  readonly text: string;
  readonly changes: ReadonlyArray<ConfigChange>;
  readonly warnings: ReadonlyArray<ConfigWarning>;
}

function removeTopLevelModel(text: string): E.Either<ConfigError, WithoutModel> {
  const read = readDocument(text);
  if (E.isLeft(read)) return read;
  const config = read.right;
  if (!hasOwnKey(config.values, 'model')) return E.right({ text, changes: [], warnings: [] });
  const statement = findStatement(config, ['model']);
  if (statement === undefined) {
    return E.right({ text, changes: [], warnings: [{ _tag: 'ModelKept', message: 'the top-level `model` is a table, not a model name; it was left as it is' }] });
  }
  return E.map((edited: string): WithoutModel => ({ text: edited, changes: [{ _tag: 'ModelRemoved' }], warnings: [] }))(
    applyVerified(config, [removeStatement(statement)], [{ path: ['model'], value: undefined }]),
  );
}

/**
 * The text to write into the Wework Codex home for the user's native config text: without the
 * top-level `model`, then normalized. Malformed TOML gives `MalformedConfig` and nothing is
 * imported.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 *
 * const result = importNativeConfig('model = "o3"\nmodel_provider = "azure"\n\n[profiles.fast]\nmodel = "o4-mini"\n');
 * E.isRight(result) && result.right.text;
 * // 'model_provider = "azure"\npersonality = "pragmatic"\n\n[profiles.fast]\nmodel = "o4-mini"\n'
 * ```
 */
export function importNativeConfig(text: string): E.Either<ConfigError, NormalizedConfig> {
  try {
    const withoutModel = removeTopLevelModel(text);
    if (E.isLeft(withoutModel)) return withoutModel;
    const normalized = normalizeConfig(withoutModel.right.text);
    if (E.isLeft(normalized)) return normalized;
    return E.right({
      text: normalized.right.text,
      changes: [...withoutModel.right.changes, ...normalized.right.changes],
      warnings: [...withoutModel.right.warnings, ...normalized.right.warnings],
    });
  } catch {
    return E.left(editNotVerified('the import failed unexpectedly; nothing was imported'));
  }
}
