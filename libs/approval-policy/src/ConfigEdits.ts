/**
 * Codex `config/batchWrite` edits (`{ keyPath, value, mergeStrategy }`) and their TOML key paths,
 * from `@wework/config-toml`, where config.toml editing lives; the permission-mode and built-in
 * server edits of this package are built on them.
 */
export { applyConfigEdits, configEdits, formatKeyPath, parseKeyPath, type ConfigEditError } from '@wework/config-toml';
