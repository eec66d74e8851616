/**
 * Which configuration values a transaction changed, found by comparing config.toml before and after (so
 * the hot-reload decision rests on what the file says, not on what the transaction meant to do).
 */
import { parse } from 'smol-toml';
import type { ConfigChange } from './HotReloadDecision.js';

const isTable = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const parseOrNull = (text: string | null): Record<string, unknown> | null => {
  if (text === null) return {};
  try {
    return parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/**
 * The key paths whose values differ, down to `plugins.<key>` (a plugin's own table counts as one
 * change); `null` when either text is not TOML.
 */
export function configTomlChanges(before: string | null, after: string | null): ReadonlyArray<ConfigChange> | null {
  const a = parseOrNull(before);
  const b = parseOrNull(after);
  if (a === null || b === null) return null;
  const changes: ConfigChange[] = [];
  const visit = (x: unknown, y: unknown, path: string[]): void => {
    if (JSON.stringify(x) === JSON.stringify(y)) return;
    // A table that appears or disappears is compared key by key against an empty one.
    const left = x === undefined && isTable(y) ? {} : x;
    const right = y === undefined && isTable(x) ? {} : y;
    if (isTable(left) && isTable(right) && !(path.length === 2 && path[0] === 'plugins')) {
      for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) visit(left[key], right[key], [...path, key]);
      return;
    }
    changes.push({ file: 'config.toml', path });
  };
  visit(a, b, []);
  return changes;
}
