/**
 * `@wework/codex-protocol/json`: the JSON value helpers of the protocol (records, deep merge, equality)
 * without the protocol's codecs, for code that edits config values but decodes no message.
 *
 * Every function here is pure: values in, values out.
 */
export type { JsonValue } from './generated/serde_json/JsonValue.js';
export { copyRecord, deepMerge, jsonEqual, own, withKey, withoutKey, type JsonRecord } from './JsonRecord.js';
