/**
 * `@wework/config-toml`: the one config.toml editor.
 *
 * - {@link setKey}, {@link removeKey}, {@link removeTable}: comment-keeping edits of a key path,
 *   however the document writes it (`[plugins."p@m"] enabled = true` or
 *   `plugins."p@m".enabled = true`), each read back and verified before it is returned.
 * - {@link readDocument} and the edits of `VerifiedEdit` for callers that plan several edits of one
 *   text at once, checked together by {@link applyVerified}.
 * - {@link configEdits}, {@link applyConfigEdits}, {@link formatKeyPath}: Codex `config/batchWrite`
 *   edits and their key paths.
 * - {@link configDiff}: which key paths differ between two versions of a text.
 *
 * Everything here is pure: no IO, no clock, no process.
 */
export {
  editNotVerified,
  malformedConfig,
  malformedConfigFrom,
  tomlErrorReason,
  UNKNOWN_TOML_REASON,
  unsupportedLayout,
  type ConfigError,
  type EditNotVerified,
  type MalformedConfig,
  type TomlEditError,
  type UnsupportedLayout,
} from './ConfigError.js';
export { applyConfigEdits, configEdits, type ConfigEditError } from './BatchWrite.js';
export { configDiff, type ConfigDiffOptions } from './ConfigDiff.js';
export {
  findStatement,
  findTable,
  parseToml,
  readDocument,
  rootSection,
  statementsUnder,
  type Layout,
  type Section,
  type Statement,
  type TomlDocument,
} from './TomlDocument.js';
export { removeKey, removeTable, setKey, type SetKeyOptions } from './Editor.js';
export { formatKeyPath, parseKeyPath, type InvalidKeyPath } from './KeyPath.js';
export {
  appendTable,
  applyVerified,
  insertLine,
  removeStatement,
  renameKey,
  replaceValue,
  statementLine,
  type InsertOptions,
  type Placement,
  type TextEdit,
  type ValueChange,
} from './VerifiedEdit.js';
export { tomlValueText } from './internal/ValueText.js';
