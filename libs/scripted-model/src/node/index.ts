/**
 * Node entry of `@wework/scripted-model`: the loopback HTTP server, the script file reader, the writer
 * of a Codex home's config.toml for the scripted model, and the machine lock of end-to-end tests that
 * must not overlap (a Codex login). The `wework-scripted-model` command is built on these.
 *
 * @packageDocumentation
 */
export { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from './ScriptedModelServer.js';
export { holdMachineLock, withMachineLock, type MachineLockOptions } from './MachineLock.js';
export {
  MAX_SCRIPT_FILE_BYTES,
  formatScriptFileError,
  readScriptFile,
  type ReadScriptFileOptions,
  type ScriptFileError,
  type ScriptFileNotText,
  type ScriptFileTooLarge,
  type ScriptFileUnreadable,
} from './ScriptFile.js';
export {
  MAX_CONFIG_BYTES,
  formatCodexConfigError,
  writeScriptedModelConfig,
  type CodexConfigError,
  type CodexConfigIoFailed,
  type CodexConfigNotEditable,
  type CodexConfigTooLarge,
} from './CodexHomeConfig.js';
