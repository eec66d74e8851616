/**
 * `@wework/host-errors`: how the executor's typed errors reach a host. One pure mapping per area
 * (runtime, tasks, plugin service, plugin management, marketplaces, accounts, settings, inventory,
 * skills) to the host protocol's error reply — the code of `HostErrorCode`, `data.tag`, `data.retryable`
 * where documented, and a message that names the params field concerned but never its value, a path,
 * or Codex's or the operating system's own text.
 *
 * Every function here is pure.
 */
export {
  accountFailure,
  describeAccountFault,
  describeLoginFault,
  describeRuntimeFault,
  hostFailure,
  inventoryFailure,
  managementFailure,
  marketplaceFailure,
  pluginServiceFailure,
  runtimeFailure,
  settingsFailure,
  skillReadFailure,
  taskFailure,
  type AccountFault,
  type AccountsFault,
  type BusyActivity,
  type HostError,
  type InventoryFault,
  type LoginFault,
  type ManagementFault,
  type MarketplaceFault,
  type PluginServiceFault,
  type ReorderFault,
  type RuntimeFault,
  type SettingsFault,
  type SkillReadFault,
  type TaskFault,
} from './HostErrors.js';
export { categoryTag, categoryText, fileSystemCategory, methodName, type FileSystemCategory } from './Category.js';
