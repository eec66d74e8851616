/**
 * Startup normalization of config.toml in the Wework Codex home, run before the app-server starts.
 *
 * - `personality = "pragmatic"` is added when the root table has no `personality` key.
 * - The legacy top-level `instructions` (which, in current Codex, replaces the model's base
 *   instructions and so removes its built-in personality and progress-update rules) moves to
 *   `developer_instructions`:
 *   - no `developer_instructions`: the `instructions` key is renamed in place, its value written
 *     exactly as it was (same quoting, same lines, same trailing comment);
 *   - `developer_instructions` already set: the legacy text is appended to the user's copy after a
 *     blank line (before Wework's routing block, if any; see `DeveloperInstructions.ts`), unless
 *     the copy already contains it; then `instructions` is removed;
 *   - an empty legacy text is removed, adding nothing;
 *   - a legacy value that is not a string, or a `developer_instructions` that is not a string, is
 *     left alone with a {@link ConfigWarning}: nothing is moved that could not be moved without
 *     losing text.
 *
 * The decisions are made on the values smol-toml reads; the edits are textual and minimal: every
 * other byte (keys, comments, blank lines, order, quoting, line endings, byte order mark) stays.
 * New keys go after the last key/value line of the root table, so they stay before the first
 * `[table]`. The result is read back and checked before it is returned, and normalizing it again
 * returns it unchanged. Malformed TOML is never rewritten.
 *
 * Every function here is pure: text in, text or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TomlValue } from 'smol-toml';
import {
  applyVerified,
  editNotVerified,
  findStatement,
  insertLine,
  readDocument,
  removeStatement,
  renameKey,
  replaceValue,
  rootSection,
  type ConfigError,
  type Statement,
  type TextEdit,
  type TomlDocument,
  type ValueChange,
} from '@wework/config-toml';
import { DEFAULT_INTERACTION_STYLE } from './SettingsEdits.js';
import { mergeLegacyInstructions } from './DeveloperInstructions.js';
import { hasOwnKey, ownValue } from './internal/OwnKeys.js';

/** A change made to the text, in the order it was decided. */
export type ConfigChange =
  /** `personality = "pragmatic"` was added to the root table. */
  | { readonly _tag: 'PersonalityAdded'; readonly personality: 'pragmatic' }
  /** `instructions` was renamed to `developer_instructions`, which did not exist; the value is the same text. */
  | { readonly _tag: 'InstructionsRenamed' }
  /** The legacy text was appended to the existing `developer_instructions`, and `instructions` removed. */
  | { readonly _tag: 'InstructionsAppended' }
  /** `instructions` was removed without adding anything: it was empty, or `developer_instructions` already contains it. */
  | { readonly _tag: 'InstructionsRemoved'; readonly reason: 'Empty' | 'AlreadyContained' }
  /** The top-level `model` was removed (configuration import only). */
  | { readonly _tag: 'ModelRemoved' };

/** Something left as it was because changing it could lose the user's settings; for the log. */
export type ConfigWarning =
  | {
      readonly _tag: 'LegacyInstructionsKept';
      readonly reason: 'InstructionsNotAString' | 'DeveloperInstructionsNotAString';
      readonly message: string;
    }
  /** The top-level `model` is a table, not Codex's model setting; the import left it (configuration import only). */
  | { readonly _tag: 'ModelKept'; readonly message: string };

/** A normalized config text; `changes` is empty exactly when `text` is the input. */
export interface NormalizedConfig {
  readonly text: string;
  readonly changes: ReadonlyArray<ConfigChange>;
  readonly warnings: ReadonlyArray<ConfigWarning>;
}

/** The line added when the root table has no `personality`. */
export const DEFAULT_PERSONALITY_LINE = `personality = "${DEFAULT_INTERACTION_STYLE}"`;

/**
 * The text of a config.toml created by Wework where none exists: what normalizing an empty file
 * gives. Create it with mode 0600.
 *
 * @example
 * ```ts
 * freshConfigText(); // 'personality = "pragmatic"\n'
 * ```
 */
export function freshConfigText(): string {
  return `${DEFAULT_PERSONALITY_LINE}\n`;
}

interface Plan {
  readonly edits: TextEdit[];
  readonly removed: Statement[];
  readonly expected: Map<string, TomlValue | undefined>;
  readonly changes: ConfigChange[];
  readonly warnings: ConfigWarning[];
}

function kept(reason: 'InstructionsNotAString' | 'DeveloperInstructionsNotAString', message: string): ConfigWarning {
  return { _tag: 'LegacyInstructionsKept', reason, message };
}

function planInstructions(config: TomlDocument, plan: Plan): E.Either<ConfigError, void> {
  if (!hasOwnKey(config.values, 'instructions')) return E.right(undefined);
  const legacy = ownValue(config.values, 'instructions');
  if (typeof legacy !== 'string') {
    plan.warnings.push(kept('InstructionsNotAString', 'the top-level `instructions` is not a string; it was left as it is'));
    return E.right(undefined);
  }
  const hasDeveloper = hasOwnKey(config.values, 'developer_instructions');
  const developer = ownValue(config.values, 'developer_instructions');
  if (hasDeveloper && typeof developer !== 'string') {
    plan.warnings.push(kept('DeveloperInstructionsNotAString', '`developer_instructions` is not a string; `instructions` was left as it is'));
    return E.right(undefined);
  }
  const statement = findStatement(config, ['instructions']);
  if (statement === undefined) return E.left(editNotVerified('the `instructions` line could not be located'));
  const remove = (): void => {
    plan.edits.push(removeStatement(statement));
    plan.removed.push(statement);
  };
  plan.expected.set('instructions', undefined);
  if (legacy === '') {
    remove();
    plan.expected.set('developer_instructions', developer);
    plan.changes.push({ _tag: 'InstructionsRemoved', reason: 'Empty' });
    return E.right(undefined);
  }
  if (typeof developer !== 'string') {
    plan.edits.push(renameKey(statement, 'developer_instructions'));
    plan.expected.set('developer_instructions', legacy);
    plan.changes.push({ _tag: 'InstructionsRenamed' });
    return E.right(undefined);
  }
  const merged = mergeLegacyInstructions(developer, legacy);
  remove();
  if (merged === null) {
    plan.expected.set('developer_instructions', developer);
    plan.changes.push({ _tag: 'InstructionsRemoved', reason: 'AlreadyContained' });
    return E.right(undefined);
  }
  const target = findStatement(config, ['developer_instructions']);
  if (target === undefined) return E.left(editNotVerified('the `developer_instructions` line could not be located'));
  plan.edits.push(replaceValue(config, target, merged));
  plan.expected.set('developer_instructions', merged);
  plan.changes.push({ _tag: 'InstructionsAppended' });
  return E.right(undefined);
}

function planPersonality(config: TomlDocument, plan: Plan): void {
  if (hasOwnKey(config.values, 'personality')) return;
  plan.edits.push(insertLine(config, rootSection(config), DEFAULT_PERSONALITY_LINE, { removed: plan.removed }));
  plan.expected.set('personality', DEFAULT_INTERACTION_STYLE);
  plan.changes.push({ _tag: 'PersonalityAdded', personality: DEFAULT_INTERACTION_STYLE });
}

/** {@link normalizeConfig} of a config already read. */
export function normalizeTomlDocument(config: TomlDocument): E.Either<ConfigError, NormalizedConfig> {
  const plan: Plan = { edits: [], removed: [], expected: new Map(), changes: [], warnings: [] };
  const instructions = planInstructions(config, plan);
  if (E.isLeft(instructions)) return instructions;
  planPersonality(config, plan);
  return E.map((text: string): NormalizedConfig => ({ text, changes: plan.changes, warnings: plan.warnings }))(
    applyVerified(config, plan.edits, [...plan.expected].map(([key, value]): ValueChange => ({ path: [key], value }))),
  );
}

/**
 * Normalizes a config.toml text (see the module comment for the rules). Write the result back
 * (atomically, keeping the file's mode) only when `changes` is not empty; on `Left` leave the file
 * as it is: Codex reports a malformed config itself.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 *
 * const result = normalizeConfig('# mine\ninstructions = "Be brief."\n\n[features]\nplugins = false\n');
 * E.isRight(result) && result.right.text;
 * // '# mine\ndeveloper_instructions = "Be brief."\npersonality = "pragmatic"\n\n[features]\nplugins = false\n'
 * ```
 */
export function normalizeConfig(text: string): E.Either<ConfigError, NormalizedConfig> {
  try {
    const config = readDocument(text);
    return E.isLeft(config) ? config : normalizeTomlDocument(config.right);
  } catch {
    return E.left(editNotVerified('normalization failed unexpectedly; the text was left as it is'));
  }
}
