/**
 * `@wework/plugin-inventory/node`: reads what a Codex home holds of a plugin, and decides how running
 * app-servers take a committed change.
 */
export { commitAndDecide, type DecidedChange } from './DecideCommittedChange.js';
export { inspectInstalledPlugin } from './InspectInstalledPlugin.js';
