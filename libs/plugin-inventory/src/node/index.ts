/**
 * `@wework/plugin-inventory/node`: reads what a Codex home holds of a plugin, for the hot-reload
 * decision.
 */
export { inspectInstalledPlugin } from './InspectInstalledPlugin.js';
