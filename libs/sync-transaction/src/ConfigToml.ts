/**
 * Codex plugin enablement in config.toml: `[plugins."<plugin>@<marketplace>"] enabled = true|false`.
 *
 * Every function is pure: text in, text or a typed error out. Edits are minimal and textual — every
 * byte outside the plugin's own table is kept — and each result is parsed again and compared with the
 * intended document, so an edit that would change anything else (a layout this editor does not
 * understand: dotted keys, inline tables, tricky multi-line strings) is refused instead of written.
 */
import * as E from 'fp-ts/lib/Either.js';
import { parse } from 'smol-toml';

/** config.toml is not valid TOML. */
export interface ConfigParseFailed {
  readonly _tag: 'ParseFailed';
  readonly file: 'config.toml';
  readonly detail: string;
}

/** The plugin's enablement is written in a form this editor does not change safely. */
export interface UnsupportedConfigLayout {
  readonly _tag: 'UnsupportedConfigLayout';
  readonly file: 'config.toml';
  readonly key: string;
}

/** Errors of this module. */
export type ConfigTomlError = ConfigParseFailed | UnsupportedConfigLayout;

type Table = Record<string, unknown>;

const isTable = (u: unknown): u is Table => typeof u === 'object' && u !== null && !Array.isArray(u) && !(u instanceof Date);

const parseToml = (text: string): E.Either<ConfigParseFailed, Table> => {
  try {
    return E.right(parse(text) as Table);
  } catch (error) {
    return E.left({ _tag: 'ParseFailed', file: 'config.toml', detail: error instanceof Error ? error.message.split('\n')[0] ?? '' : 'invalid TOML' });
  }
};

/** The plugin's `enabled` value in config.toml text: `null` when not set. */
export const readCodexEnablement = (text: string, key: string): E.Either<ConfigParseFailed, boolean | null> => {
  const doc = parseToml(text);
  if (E.isLeft(doc)) return doc;
  const plugins = doc.right['plugins'];
  const table = isTable(plugins) ? plugins[key] : undefined;
  const enabled = isTable(table) ? table['enabled'] : undefined;
  return E.right(typeof enabled === 'boolean' ? enabled : null);
};

const canonical = (u: unknown): unknown => {
  if (u instanceof Date) return `date:${u.toISOString()}`;
  if (typeof u === 'bigint') return `bigint:${u.toString()}`;
  if (typeof u === 'number' && !Number.isFinite(u)) return `number:${String(u)}`;
  if (Array.isArray(u)) return u.map(canonical);
  if (isTable(u)) return Object.fromEntries(Object.keys(u).sort().map((k) => [k, canonical(u[k])]));
  return u;
};

/** Drops an empty `plugins` table: TOML has no way to tell it from an absent one once its last sub-table goes. */
const withoutEmptyPlugins = (doc: Table): Table => {
  const plugins = doc['plugins'];
  if (!isTable(plugins) || Object.keys(plugins).length > 0) return doc;
  const { plugins: _dropped, ...rest } = doc;
  return rest;
};

const sameDocument = (a: Table, b: Table): boolean =>
  JSON.stringify(canonical(withoutEmptyPlugins(a))) === JSON.stringify(canonical(withoutEmptyPlugins(b)));

/** Splits text into lines that keep their line endings. */
const linesOf = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

const HEADER = /^\s*\[[^[]/;
const ARRAY_HEADER = /^\s*\[\[/;

/** The key path a `[table]` header line names, or `null` when the line is not a plain table header. */
const headerPath = (line: string): ReadonlyArray<string> | null => {
  if (!HEADER.test(line) || ARRAY_HEADER.test(line)) return null;
  let doc: unknown;
  try {
    doc = parse(`${line.trimEnd()}\n`);
  } catch {
    return null;
  }
  const path: string[] = [];
  while (isTable(doc)) {
    const keys = Object.keys(doc);
    if (keys.length !== 1) break;
    const key = keys[0] as string;
    path.push(key);
    doc = doc[key];
  }
  return path;
};

const isHeaderLine = (line: string): boolean => HEADER.test(line) || ARRAY_HEADER.test(line);

/**
 * Sets (`true`/`false`) or removes (`null`: the plugin's whole table goes) the plugin's enablement in
 * config.toml text. Text that already says what is asked is returned unchanged.
 *
 * @example
 * ```ts
 * setCodexEnablement('model = "m"\n', 'forms@wework', true);
 * // Right('model = "m"\n\n[plugins."forms@wework"]\nenabled = true\n')
 * ```
 */
export const setCodexEnablement = (text: string, key: string, enabled: boolean | null): E.Either<ConfigTomlError, string> => {
  const before = parseToml(text);
  if (E.isLeft(before)) return before;
  const expected = structuredClone(before.right);
  const plugins = expected['plugins'];
  if (enabled === null) {
    if (!isTable(plugins) || !(key in plugins)) return E.right(text);
    delete plugins[key];
  } else if (isTable(plugins)) {
    const table = plugins[key];
    if (isTable(table)) {
      if (table['enabled'] === enabled) return E.right(text);
      table['enabled'] = enabled;
    } else plugins[key] = { enabled };
  } else expected['plugins'] = { [key]: { enabled } };

  const lines = linesOf(text);
  const start = lines.findIndex((line) => {
    const path = headerPath(line);
    return path !== null && path.length === 2 && path[0] === 'plugins' && path[1] === key;
  });
  let end = start + 1;
  while (start >= 0 && end < lines.length && !isHeaderLine(lines[end] as string)) end++;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const value = enabled === null ? '' : String(enabled);
  const out = [...lines];
  if (enabled === null) {
    if (start < 0) return E.left({ _tag: 'UnsupportedConfigLayout', file: 'config.toml', key });
    const previousBlank = start > 0 && (lines[start - 1] as string).trim() === '';
    const removeBlank = previousBlank && (end >= lines.length || (lines[end] as string).trim() === '' || isHeaderLine(lines[end] as string));
    out.splice(removeBlank ? start - 1 : start, end - start + (removeBlank ? 1 : 0));
  } else if (start >= 0) {
    const at = out.findIndex((line, i) => i > start && i < end && /^\s*enabled\s*=/.test(line));
    if (at >= 0) {
      const line = out[at] as string;
      const replaced = line.replace(/^(\s*enabled\s*=\s*)(true|false)(?=\s*(#.*)?\r?\n?$)/, `$1${value}`);
      out[at] = replaced !== line ? replaced : `enabled = ${value}${line.endsWith('\r\n') ? '\r\n' : line.endsWith('\n') ? '\n' : ''}`;
    } else out.splice(start + 1, 0, `enabled = ${value}${eol}`);
  } else {
    if (out.length > 0 && !(out[out.length - 1] as string).endsWith('\n')) out[out.length - 1] += eol;
    const separator = out.length > 0 && (out[out.length - 1] as string).trim() !== '' ? eol : '';
    out.push(`${separator}[plugins.${JSON.stringify(key)}]${eol}enabled = ${value}${eol}`);
  }
  const result = out.join('');
  const after = parseToml(result);
  if (E.isLeft(after) || !sameDocument(after.right, expected)) return E.left({ _tag: 'UnsupportedConfigLayout', file: 'config.toml', key });
  return E.right(result);
};
