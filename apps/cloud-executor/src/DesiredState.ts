/**
 * The desired-state sync message: which cloud plugins this device should have, as the backend sends it
 * after a change to the user's installed plugins. Each plugin's package has already been downloaded and
 * unpacked into a directory by the download step; the message names that directory.
 *
 * ```json
 * {"type":"desiredState","revision":7,"plugins":[{"name":"team-skills","marketplace":"wegent","version":"1.0.0","package":{"path":"/downloads/team-skills-1.0.0"}}]}
 * ```
 *
 * Every function here is pure: one line of text in, a decoded message or a typed error out — never a
 * throw, whatever the line holds.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { expectedTypeName, issuePath } from '@wework/decode-issues';
import { pluginKey } from '@wework/plugin-inventory';
import { checkIdentifier } from '@wework/sync-transaction';

/** Where a plugin's unpacked package is. */
export const PackageLocation = t.type({ path: t.string });

/** One plugin the device should have installed. */
export const DesiredPlugin = t.type({
  name: t.string,
  marketplace: t.string,
  version: t.string,
  package: PackageLocation,
});
/** One plugin the device should have installed. */
export type DesiredPlugin = t.TypeOf<typeof DesiredPlugin>;

/** The desired-state message: the complete list of cloud plugins for this device at `revision`. */
export const DesiredStateMessage = t.type({
  type: t.literal('desiredState'),
  /** Increases with every change on the backend; an older revision than one already applied is ignored. */
  revision: t.Int,
  plugins: t.array(DesiredPlugin),
});
/** The desired-state message. */
export type DesiredStateMessage = t.TypeOf<typeof DesiredStateMessage>;

/** The longest message line accepted (16 MiB of UTF-16 code units). */
export const MAX_MESSAGE_LENGTH = 16 * 1024 * 1024;

/** Why a message line was rejected. Nothing was changed on the device. */
export type MessageError =
  | { readonly _tag: 'InvalidJson' }
  | { readonly _tag: 'MessageTooLarge'; readonly length: number; readonly limit: number }
  | { readonly _tag: 'InvalidMessage'; readonly issues: ReadonlyArray<string> };

/** Issues of an io-ts failure as `path: expected type` lines (values are never echoed). */
const issuesOf = (errors: t.Errors): ReadonlyArray<string> => [
  ...new Set(errors.map((error) => `${issuePath(error.context) || '(message)'}: expected ${expectedTypeName(error) ?? 'a value'}`)),
];

const isAbsolutePath = (path: string): boolean => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);

/** What the codec cannot say: identifiers Codex and the file system accept, absolute package paths, no duplicates, a revision ≥ 0. */
const semanticIssues = (message: DesiredStateMessage): ReadonlyArray<string> => {
  const issues: string[] = [];
  if (message.revision < 0) issues.push('revision: expected a non-negative integer');
  const seen = new Set<string>();
  message.plugins.forEach((plugin, i) => {
    for (const field of ['name', 'marketplace', 'version'] as const) {
      if (E.isLeft(checkIdentifier(field, plugin[field]))) issues.push(`plugins.${i}.${field}: expected letters, digits, ".", "_", "+" or "-", starting with a letter or digit`);
    }
    if (!isAbsolutePath(plugin.package.path)) issues.push(`plugins.${i}.package.path: expected an absolute path`);
    const key = pluginKey(plugin);
    if (seen.has(key)) issues.push(`plugins.${i}: ${key} is listed twice`);
    seen.add(key);
  });
  return issues;
};

/**
 * Decodes one message line.
 *
 * @example
 * ```ts
 * decodeMessage('{"type":"desiredState","revision":1,"plugins":[]}'); // Right({ type: 'desiredState', revision: 1, plugins: [] })
 * decodeMessage('hello');                                             // Left({ _tag: 'InvalidJson' })
 * ```
 */
export const decodeMessage = (line: string): E.Either<MessageError, DesiredStateMessage> => {
  if (line.length > MAX_MESSAGE_LENGTH) return E.left({ _tag: 'MessageTooLarge', length: line.length, limit: MAX_MESSAGE_LENGTH });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // The parser's message quotes the line; a status line never echoes what it was sent.
    return E.left({ _tag: 'InvalidJson' });
  }
  const decoded = DesiredStateMessage.decode(value);
  if (E.isLeft(decoded)) return E.left({ _tag: 'InvalidMessage', issues: issuesOf(decoded.left) });
  const issues = semanticIssues(decoded.right);
  return issues.length > 0 ? E.left({ _tag: 'InvalidMessage', issues }) : E.right(decoded.right);
};
