/**
 * `@wework/host-errors`: how the executor's typed errors reach a host. One pure mapping per area
 * (runtime, tasks, plugin service, plugin management, marketplaces, accounts, settings, inventory,
 * skills, sends) to the host protocol's error reply — the code of `HostErrorCode`, `data.tag`, `data.retryable`
 * where documented, and a message that names the params field concerned but never its value, a path,
 * or Codex's or the operating system's own text.
 *
 * Every function here is pure.
 */
export {
  accountFailure,
  describeAccountFault,
  hostFailure,
  inventoryFailure,
  managementFailure,
  marketplaceFailure,
  pluginServiceFailure,
  runtimeFailure,
  settingsFailure,
  skillReadFailure,
  taskFailure,
  type InspectionFault,
  type ManagementFault,
  type MarketplaceFault,
  type RuntimeFault,
} from './HostErrors.js';
export { categoryText, fileSystemCategory } from './Category.js';
