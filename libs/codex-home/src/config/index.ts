/**
 * config.toml of the Wework Codex home: startup normalization, import of the native config,
 * custom instructions with Wework's routing block, and the `config/batchWrite` edits of the
 * settings kept there.
 *
 * Everything here is pure: no IO, no clock, no process.
 */
export {
  customInstructionsEdit,
  DEFAULT_INTERACTION_STYLE,
  developerInstructionsEdit,
  INTERACTION_STYLES,
  personalityEdit,
  type InteractionStyle,
  type ReplaceEdit,
} from './SettingsEdits.js';
export {
  composeDeveloperInstructions,
  mergeLegacyInstructions,
  ROUTING_BLOCK_BEGIN,
  ROUTING_BLOCK_END,
  splitDeveloperInstructions,
  userCopyOf,
  withRoutingInstructions,
  type SplitDeveloperInstructions,
} from './DeveloperInstructions.js';
export { importNativeConfig } from './ImportNativeConfig.js';
export {
  DEFAULT_PERSONALITY_LINE,
  freshConfigText,
  normalizeConfig,
  type ConfigChange,
  type ConfigWarning,
  type NormalizedConfig,
} from './NormalizeConfig.js';
