/**
 * The `config/batchWrite` edits of the settings Wework keeps in config.toml: the interaction style
 * (`personality`) and the custom instructions (`developer_instructions`). config.toml is their
 * single source of truth; nothing is repeated on thread or turn requests.
 *
 * The edits are plain objects of the protocol's `ConfigEdit` shape
 * (`{ keyPath, value, mergeStrategy }`); a type test pins them to `@wework/codex-protocol`.
 *
 * Every function here is pure: values in, plain data out.
 */
import { composeDeveloperInstructions } from './DeveloperInstructions.js';

/**
 * The interaction styles offered in settings. Codex's `Personality` also has `"none"`, which
 * Wework does not offer.
 */
export type InteractionStyle = 'friendly' | 'pragmatic';

/** Every {@link InteractionStyle}, in the order settings shows them. */
export const INTERACTION_STYLES: ReadonlyArray<InteractionStyle> = ['friendly', 'pragmatic'];

/** The style written when config.toml has none. */
export const DEFAULT_INTERACTION_STYLE = 'pragmatic' satisfies InteractionStyle;

/** One `config/batchWrite` edit that sets `keyPath` to `value`. */
export interface ReplaceEdit<K extends string, V> {
  readonly keyPath: K;
  readonly value: V;
  readonly mergeStrategy: 'replace';
}

/**
 * The edit that sets the interaction style.
 *
 * @example
 * ```ts
 * personalityEdit('friendly'); // { keyPath: 'personality', value: 'friendly', mergeStrategy: 'replace' }
 * ```
 */
export function personalityEdit(style: InteractionStyle): ReplaceEdit<'personality', InteractionStyle> {
  return { keyPath: 'personality', value: style, mergeStrategy: 'replace' };
}

/**
 * The edit that sets `developer_instructions` to exactly `text`. To save the user's copy, pass
 * {@link composeDeveloperInstructions}'s result (or use {@link customInstructionsEdit}).
 *
 * @example
 * ```ts
 * developerInstructionsEdit('Answer in French.');
 * // { keyPath: 'developer_instructions', value: 'Answer in French.', mergeStrategy: 'replace' }
 * ```
 */
export function developerInstructionsEdit(text: string): ReplaceEdit<'developer_instructions', string> {
  return { keyPath: 'developer_instructions', value: text, mergeStrategy: 'replace' };
}

/**
 * The edit that saves the user's copy of the custom instructions with the current routing
 * instructions: {@link developerInstructionsEdit} of {@link composeDeveloperInstructions}.
 *
 * @example
 * ```ts
 * customInstructionsEdit('Answer in French.', 'Open links in the embedded browser.').value.startsWith('Answer in French.\n\n'); // true
 * ```
 */
export function customInstructionsEdit(userCopy: string, routingInstructions: string): ReplaceEdit<'developer_instructions', string> {
  return developerInstructionsEdit(composeDeveloperInstructions(userCopy, routingInstructions));
}
