/**
 * The executor's answer to every method of the host protocol: the union of its areas, each a part of
 * `HostHandlers` keyed by wire method (tasks, messages, accounts, settings, plugins, marketplaces, skills,
 * events and cards, runtime, supervision). A method added to `@wework/host-protocol` fails to compile
 * here until an area serves it; `test/hostMethods.test.ts` finds each method served in exactly one area
 * and described in exactly one row of `docs/host-protocol.md`.
 */
import type { HostHandlers } from '@wework/host-protocol';
import { accountHandlers } from './AccountHandlers.js';
import { eventHandlers } from './EventHandlers.js';
import { handlerKit, type ExecutorServices, type HostCall } from './HandlerKit.js';
import { marketplaceHandlers } from './MarketplaceHandlers.js';
import { messageHandlers } from './MessageHandlers.js';
import { pluginHandlers } from './PluginHandlers.js';
import { runtimeHandlers } from './RuntimeHandlers.js';
import { settingsHandlers } from './SettingsHandlers.js';
import { skillHandlers } from './SkillHandlers.js';
import { supervisionHandlers } from './SupervisionHandlers.js';
import { taskHandlers } from './TaskHandlers.js';

export type { ExecutorServices, HostCall } from './HandlerKit.js';

/** Every area of the host protocol over the executor's services. */
export function executorHandlers(services: ExecutorServices): HostHandlers<HostCall> {
  const kit = handlerKit(services);
  return {
    ...runtimeHandlers(kit),
    ...taskHandlers(kit),
    ...messageHandlers(kit),
    ...accountHandlers(kit),
    ...settingsHandlers(kit),
    ...pluginHandlers(kit),
    ...marketplaceHandlers(kit),
    ...skillHandlers(kit),
    ...eventHandlers(kit),
    ...supervisionHandlers(kit),
  };
}
