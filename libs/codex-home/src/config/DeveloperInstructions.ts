/**
 * Custom instructions (Settings → Context) and Wework's embedded-browser routing instructions,
 * stored together in Codex's `developer_instructions`.
 *
 * The executor writes `developer_instructions` through `config/batchWrite` as the user's copy
 * followed by a routing block, and shows the user only their copy when it reads the value back
 * through `config/read`. The routing block is always the end of the value:
 *
 * ```text
 * <user's copy>              (omitted, with the blank line, when the copy is empty)
 *
 * <!-- wework:embedded-browser-routing:begin -->
 * <routing instructions>
 * <!-- wework:embedded-browser-routing:end -->
 * ```
 *
 * The block is found from the end of the value: the value ends with the end marker and the block
 * starts at the *last* begin marker. The user's copy comes before the block, so whatever it
 * contains (the routing text, either marker, a whole block of its own) it is returned unchanged.
 * The routing text is ours; {@link composeDeveloperInstructions} removes any begin marker from it,
 * which is what makes "the last begin marker" unambiguous. A block of any older routing text is
 * recognised by its markers and replaced as a whole ({@link withRoutingInstructions}).
 *
 * Every function here is pure: strings in, strings out. Nothing throws.
 */

/** First line of the routing block. Stable across versions: it is how the block is found. */
export const ROUTING_BLOCK_BEGIN = '<!-- wework:embedded-browser-routing:begin -->';

/** Last line of the routing block. Stable across versions: it is how the block is found. */
export const ROUTING_BLOCK_END = '<!-- wework:embedded-browser-routing:end -->';

/** Between the user's copy and the routing block: one blank line. */
const SEPARATOR = '\n\n';

/** The routing text without any begin marker (removed until none is left, since a removal can join two halves). */
function withoutBeginMarker(routingInstructions: string): string {
  let text = routingInstructions;
  while (text.includes(ROUTING_BLOCK_BEGIN)) text = text.split(ROUTING_BLOCK_BEGIN).join('');
  return text;
}

/** A value split into the user's copy and the content of its routing block (`null` when it has none). */
export interface SplitDeveloperInstructions {
  readonly userCopy: string;
  readonly routing: string | null;
}

/**
 * Splits a `developer_instructions` value at its routing block. A value without a block is all
 * user copy. Trailing blanks after the end marker (left by an edit by hand) are tolerated.
 *
 * @example
 * ```ts
 * splitDeveloperInstructions(composeDeveloperInstructions('Answer in French.', 'Open links in the embedded browser.'));
 * // { userCopy: 'Answer in French.', routing: 'Open links in the embedded browser.' }
 * ```
 */
export function splitDeveloperInstructions(developerInstructions: string): SplitDeveloperInstructions {
  const endSuffix = `\n${ROUTING_BLOCK_END}`;
  const trimmed = developerInstructions.endsWith(endSuffix) ? developerInstructions : developerInstructions.trimEnd();
  if (!trimmed.endsWith(endSuffix)) return { userCopy: developerInstructions, routing: null };
  const begin = trimmed.lastIndexOf(`${ROUTING_BLOCK_BEGIN}\n`);
  const contentStart = begin + ROUTING_BLOCK_BEGIN.length + 1;
  const contentEnd = trimmed.length - endSuffix.length;
  if (begin < 0 || contentStart > contentEnd) return { userCopy: developerInstructions, routing: null };
  const before = trimmed.slice(0, begin);
  const userCopy = before === '' ? '' : before.endsWith(SEPARATOR) ? before.slice(0, -SEPARATOR.length) : before.trimEnd();
  return { userCopy, routing: trimmed.slice(contentStart, contentEnd) };
}

/**
 * The `developer_instructions` value for a user's copy and the current routing instructions: the
 * copy, a blank line, then the routing block. An empty copy gives the block alone.
 *
 * @example
 * ```ts
 * composeDeveloperInstructions('Answer in French.', 'Open links in the embedded browser.');
 * // 'Answer in French.\n\n<!-- wework:embedded-browser-routing:begin -->\nOpen links in the embedded browser.\n<!-- wework:embedded-browser-routing:end -->'
 * ```
 */
export function composeDeveloperInstructions(userCopy: string, routingInstructions: string): string {
  const block = `${ROUTING_BLOCK_BEGIN}\n${withoutBeginMarker(routingInstructions)}\n${ROUTING_BLOCK_END}`;
  return userCopy === '' ? block : `${userCopy}${SEPARATOR}${block}`;
}

/**
 * The user's copy inside a `developer_instructions` value read back with `config/read`
 * (`null` when the key is not set gives `''`). For every `u` and `r`,
 * `userCopyOf(composeDeveloperInstructions(u, r), r) === u`, and a block of an older routing text
 * is removed just the same.
 *
 * A value without markers is all user copy, except that a trailing copy of exactly
 * `routingInstructions` (alone, or after a blank line) is taken for the routing text and removed.
 *
 * @example
 * ```ts
 * const routing = 'Open links in the embedded browser.';
 * userCopyOf(composeDeveloperInstructions('Answer in French.', routing), routing); // 'Answer in French.'
 * userCopyOf(null, routing); // ''
 * ```
 */
export function userCopyOf(developerInstructions: string | null, routingInstructions: string): string {
  if (developerInstructions === null) return '';
  const { userCopy, routing } = splitDeveloperInstructions(developerInstructions);
  if (routing !== null || routingInstructions === '') return userCopy;
  if (userCopy === routingInstructions) return '';
  const unmarkedTail = `${SEPARATOR}${routingInstructions}`;
  return userCopy.endsWith(unmarkedTail) ? userCopy.slice(0, -unmarkedTail.length) : userCopy;
}

/**
 * The value with its routing block replaced by the current routing instructions (added when it
 * has none), the user's copy untouched. A no-op on a value that already has the current block.
 *
 * @example
 * ```ts
 * const old = composeDeveloperInstructions('Answer in French.', 'routing v1');
 * withRoutingInstructions(old, 'routing v2') === composeDeveloperInstructions('Answer in French.', 'routing v2'); // true
 * ```
 */
export function withRoutingInstructions(developerInstructions: string | null, routingInstructions: string): string {
  return composeDeveloperInstructions(userCopyOf(developerInstructions, routingInstructions), routingInstructions);
}

/**
 * `developer_instructions` with the legacy `instructions` text added to the user's copy: after a
 * blank line, before the routing block if there is one. `null` when the copy already contains the
 * legacy text (nothing to add), so the legacy key can simply be dropped.
 */
export function mergeLegacyInstructions(developerInstructions: string, legacyInstructions: string): string | null {
  const { userCopy, routing } = splitDeveloperInstructions(developerInstructions);
  if (userCopy.includes(legacyInstructions)) return null;
  const merged = userCopy === '' ? legacyInstructions : `${userCopy}${SEPARATOR}${legacyInstructions}`;
  return routing === null ? merged : composeDeveloperInstructions(merged, routing);
}
