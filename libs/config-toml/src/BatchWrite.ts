/**
 * Codex `config/batchWrite` edits (`{ keyPath, value, mergeStrategy }`, the protocol's `ConfigEdit`)
 * computed from two versions of a config, and applied to a config the way Codex applies them.
 *
 * Measured on Codex 0.171.0: `keyPath` is a TOML dotted key (segments that are not bare keys are
 * quoted: `mcp_servers."dotted.name".command`); `replace` sets the value (a table replaces the
 * whole table); `replace` with `null` deletes the key; `upsert` merges a table into the existing
 * one. Comments and unrelated keys of the file survive.
 *
 * Every function here is pure: JSON in, JSON or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ConfigEdit } from '@wework/codex-protocol';
import { isRecord } from '@wework/decode-issues';
import { deepMerge, jsonEqual, own, withKey, withoutKey, type JsonRecord, type JsonValue } from '@wework/codex-protocol/json';
import { formatKeyPath, parseKeyPath, type InvalidKeyPath } from './KeyPath.js';

/** Why edits could not be applied. */
export type ConfigEditError = InvalidKeyPath | { readonly _tag: 'KeyPathThroughValue'; readonly keyPath: string; readonly message: string };

function diff(before: JsonRecord, after: JsonRecord, path: ReadonlyArray<string>, edits: ConfigEdit[]): void {
  for (const [key, value] of Object.entries(after)) {
    const previous = own(before, key);
    if (jsonEqual(previous, value)) continue;
    if (isRecord(previous) && isRecord(value)) diff(previous as JsonRecord, value as JsonRecord, [...path, key], edits);
    else edits.push({ keyPath: formatKeyPath([...path, key]), value, mergeStrategy: 'replace' });
  }
  for (const key of Object.keys(before)) {
    if (own(after, key) === undefined) edits.push({ keyPath: formatKeyPath([...path, key]), value: null, mergeStrategy: 'replace' });
  }
}

/**
 * The smallest set of `replace` edits that turns `before` into `after`: one per changed leaf or
 * new table, `null` for a removed key; empty when nothing changed. Keys that did not change are
 * never written, so a concurrent edit of another key is not lost.
 *
 * @example
 * ```ts
 * configEdits({ features: { plugins: false } }, { features: { plugins: false, tool_call_mcp_elicitation: false } });
 * // [{ keyPath: 'features.tool_call_mcp_elicitation', value: false, mergeStrategy: 'replace' }]
 * ```
 */
export function configEdits(before: JsonRecord, after: JsonRecord): ReadonlyArray<ConfigEdit> {
  const edits: ConfigEdit[] = [];
  diff(before, after, [], edits);
  return edits;
}

function setIn(config: JsonRecord, segments: ReadonlyArray<string>, edit: ConfigEdit): E.Either<ConfigEditError, JsonRecord> {
  const [head, ...rest] = segments;
  if (head === undefined) return E.right(config);
  const current = own(config, head);
  if (rest.length === 0) {
    if (edit.value === null) return E.right(withoutKey(config, head));
    const value: JsonValue =
      edit.mergeStrategy === 'upsert' && isRecord(current) && isRecord(edit.value) ? deepMerge(current as JsonRecord, edit.value as JsonRecord) : edit.value;
    return E.right(withKey(config, head, value));
  }
  if (current !== undefined && !isRecord(current)) {
    return E.left({ _tag: 'KeyPathThroughValue', keyPath: edit.keyPath, message: `${edit.keyPath} goes through "${head}", which is not a table` });
  }
  if (current === undefined && edit.value === null) return E.right(config);
  const inner = setIn((current ?? {}) as JsonRecord, rest, edit);
  return E.isLeft(inner) ? inner : E.right(withKey(config, head, inner.right));
}

/**
 * Applies edits in order, the way Codex's `config/batchWrite` does (a model for previews and tests).
 *
 * @example
 * ```ts
 * applyConfigEdits({ a: { b: 1, c: 2 } }, [{ keyPath: 'a.c', value: null, mergeStrategy: 'replace' }]); // Right({ a: { b: 1 } })
 * ```
 */
export function applyConfigEdits(config: JsonRecord, edits: ReadonlyArray<ConfigEdit>): E.Either<ConfigEditError, JsonRecord> {
  let result = config;
  for (const edit of edits) {
    const segments = parseKeyPath(edit.keyPath);
    if (E.isLeft(segments)) return segments;
    const next = setIn(result, segments.right, edit);
    if (E.isLeft(next)) return next;
    result = next.right;
  }
  return E.right(result);
}
