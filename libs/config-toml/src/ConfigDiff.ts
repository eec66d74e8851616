/**
 * Which values differ between two versions of a config.toml text, as key paths.
 *
 * Every function here is pure: text in, key paths out. Nothing throws.
 */
import { parse } from 'smol-toml';
import { isTable } from './internal/TomlValues.js';

const parseOrNull = (text: string | null): Record<string, unknown> | null => {
  if (text === null) return {};
  try {
    return parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/** Options of {@link configDiff}. */
export interface ConfigDiffOptions {
  /** Tables compared as one value: a difference anywhere inside is one change at their path. */
  readonly atomic?: (path: ReadonlyArray<string>) => boolean;
}

/**
 * The key paths whose values differ, down to the leaves (or to an `atomic` table), in key order;
 * `null` when either text is not TOML. A `null` text is a missing file: an empty document. A
 * table that appears or disappears is compared key by key against an empty one.
 *
 * @example
 * ```ts
 * configDiff('a = 1\n[t]\nb = 2\n', 'a = 1\n[t]\nb = 3\nc = 4\n'); // [['t', 'b'], ['t', 'c']]
 * configDiff(null, 'a = "unterminated\n'); // null
 * ```
 */
export function configDiff(before: string | null, after: string | null, options: ConfigDiffOptions = {}): ReadonlyArray<ReadonlyArray<string>> | null {
  const a = parseOrNull(before);
  const b = parseOrNull(after);
  if (a === null || b === null) return null;
  const atomic = options.atomic ?? (() => false);
  const changes: Array<ReadonlyArray<string>> = [];
  const visit = (x: unknown, y: unknown, path: string[]): void => {
    if (JSON.stringify(x) === JSON.stringify(y)) return;
    const left = x === undefined && isTable(y) ? {} : x;
    const right = y === undefined && isTable(x) ? {} : y;
    if (isTable(left) && isTable(right) && !atomic(path)) {
      for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) visit(left[key], right[key], [...path, key]);
      return;
    }
    changes.push(path);
  };
  visit(a, b, []);
  return changes;
}
