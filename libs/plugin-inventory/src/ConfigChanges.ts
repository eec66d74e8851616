/**
 * Which configuration values a transaction changed, found by comparing config.toml before and after (so
 * the hot-reload decision rests on what the file says, not on what the transaction meant to do).
 */
import { configDiff } from '@wework/config-toml';
import type { ConfigChange } from './HotReloadDecision.js';

/** A plugin's own table, `plugins.<key>`, counts as one change. */
const isPluginTable = (path: ReadonlyArray<string>): boolean => path.length === 2 && path[0] === 'plugins';

/**
 * The key paths whose values differ, down to `plugins.<key>` (a plugin's own table counts as one
 * change); `null` when either text is not TOML.
 */
export function configTomlChanges(before: string | null, after: string | null): ReadonlyArray<ConfigChange> | null {
  const paths = configDiff(before, after, { atomic: isPluginTable });
  return paths === null ? null : paths.map((path) => ({ file: 'config.toml', path: [...path] }));
}
