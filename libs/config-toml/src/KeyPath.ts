/**
 * TOML dotted keys as `config/batchWrite` and config.toml write them: segments that are not bare
 * keys are quoted (`mcp_servers."dotted.name".command`).
 *
 * Every function here is pure: strings in, strings or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';

/** A key path that is not a TOML dotted key made of bare and basic-string segments. */
export interface InvalidKeyPath {
  readonly _tag: 'InvalidKeyPath';
  readonly keyPath: string;
  readonly message: string;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/**
 * Formats key segments as a TOML dotted key, quoting the segments that are not bare keys.
 *
 * @example
 * ```ts
 * formatKeyPath(['mcp_servers', 'wegent_apps', 'default_tools_approval_mode']); // 'mcp_servers.wegent_apps.default_tools_approval_mode'
 * formatKeyPath(['mcp_servers', 'dotted.name']); // 'mcp_servers."dotted.name"'
 * ```
 */
export function formatKeyPath(segments: ReadonlyArray<string>): string {
  return segments.map((segment) => (BARE_KEY.test(segment) ? segment : JSON.stringify(segment))).join('.');
}

/** Parses a TOML dotted key made by {@link formatKeyPath} (bare and basic-string segments). */
export function parseKeyPath(keyPath: string): E.Either<InvalidKeyPath, ReadonlyArray<string>> {
  const invalid = (message: string): E.Either<InvalidKeyPath, ReadonlyArray<string>> => E.left({ _tag: 'InvalidKeyPath', keyPath, message });
  const segments: string[] = [];
  let i = 0;
  while (i <= keyPath.length) {
    if (keyPath[i] === '"') {
      let end = i + 1;
      while (end < keyPath.length && keyPath[end] !== '"') end += keyPath[end] === '\\' ? 2 : 1;
      if (end >= keyPath.length) return invalid(`unterminated quoted key at ${i}`);
      try {
        segments.push(JSON.parse(keyPath.slice(i, end + 1)) as string);
      } catch {
        return invalid(`invalid escape in the quoted key at ${i}`);
      }
      i = end + 1;
    } else {
      const dot = keyPath.indexOf('.', i);
      const segment = keyPath.slice(i, dot === -1 ? keyPath.length : dot);
      if (!BARE_KEY.test(segment)) return invalid(`"${segment}" at ${i} is neither a bare nor a quoted key`);
      segments.push(segment);
      i += segment.length;
    }
    if (i === keyPath.length) return E.right(segments);
    if (keyPath[i] !== '.') return invalid(`expected "." at ${i}`);
    i += 1;
  }
  return invalid('empty key');
}

