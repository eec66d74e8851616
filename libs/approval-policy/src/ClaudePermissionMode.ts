/**
 * Claude Code's permission mode for Wework conversations. Ordinary Wework Claude Code
 * conversations run as non-interactive child processes, which cannot show or complete the Claude
 * CLI's approval prompts: there, the `default` setting (and no setting at all) becomes
 * `bypassPermissions`, while an explicit `acceptEdits`, `plan`, `auto` or `bypassPermissions` is
 * passed through unchanged. Interactive local terminals are not mapped: the setting is returned as
 * it is, and a missing setting stays missing.
 *
 * An unknown value is a typed error in both contexts: nothing here guesses a mode.
 *
 * Every function here is pure: JSON in, a value or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describePersistedValue } from './PermissionMode.js';

/** Codec of a Claude Code permission mode setting (`--permission-mode`, `permissions.defaultMode`). */
export const ClaudePermissionMode = t.keyof({ default: null, acceptEdits: null, plan: null, auto: null, bypassPermissions: null }, 'ClaudePermissionMode');
/** A Claude Code permission mode. */
export type ClaudePermissionMode = t.TypeOf<typeof ClaudePermissionMode>;

/** Where the Claude Code process runs. */
export type ClaudeContext = 'nonInteractiveChild' | 'interactiveTerminal';

/** A setting that is not a Claude Code permission mode. */
export interface UnknownClaudePermissionMode {
  readonly _tag: 'UnknownClaudePermissionMode';
  /** The value described, never echoed at length. */
  readonly description: string;
  readonly message: string;
}

const unknownMode = (setting: unknown): UnknownClaudePermissionMode => {
  const description = describePersistedValue(setting);
  return {
    _tag: 'UnknownClaudePermissionMode',
    description,
    message: `unknown Claude Code permission mode ${description}: expected one of ${Object.keys(ClaudePermissionMode.keys).map((m) => JSON.stringify(m)).join(', ')}`,
  };
};

/**
 * The permission mode to start Claude Code with, from the user's setting (any JSON).
 *
 * - `nonInteractiveChild`: `default` or no setting → `bypassPermissions`; `acceptEdits`, `plan`,
 *   `auto`, `bypassPermissions` → unchanged.
 * - `interactiveTerminal`: the setting unchanged; no setting → `undefined` (let Claude Code decide).
 * - Anything else (an unknown string, `null`, a number...) → `Left(UnknownClaudePermissionMode)`.
 *
 * @example
 * ```ts
 * claudePermissionMode('default', 'nonInteractiveChild'); // Right('bypassPermissions')
 * claudePermissionMode(undefined, 'nonInteractiveChild'); // Right('bypassPermissions')
 * claudePermissionMode('plan', 'nonInteractiveChild'); // Right('plan')
 * claudePermissionMode('default', 'interactiveTerminal'); // Right('default')
 * claudePermissionMode(undefined, 'interactiveTerminal'); // Right(undefined)
 * claudePermissionMode('yolo', 'nonInteractiveChild'); // Left({ _tag: 'UnknownClaudePermissionMode', ... })
 * ```
 */
export function claudePermissionMode(setting: unknown, context: ClaudeContext): E.Either<UnknownClaudePermissionMode, ClaudePermissionMode | undefined> {
  if (setting === undefined) return E.right(context === 'nonInteractiveChild' ? 'bypassPermissions' : undefined);
  if (!ClaudePermissionMode.is(setting)) return E.left(unknownMode(setting));
  if (context !== 'nonInteractiveChild') return E.right(setting);
  return E.right(setting === 'default' ? 'bypassPermissions' : setting);
}
