/**
 * The skills area of the host protocol: switch a skill, list the skills Codex sees for a workspace, and
 * read the `SKILL.md` of one the inventory or that listing names.
 */
import * as E from 'fp-ts/lib/Either.js';
import { skillReadFailure } from '@wework/host-errors';
import type { HostFailure, HostHandlersPart, HostParamsOf } from '@wework/host-protocol';
import type { RuntimeFault } from '@wework/host-errors';
import { listWorkspaceSkills, readKnownSkill, type KnownSkillReadError, type WorkspaceSkills } from '../../plugins/WorkspaceSkills.js';
import { inventoryFailure, managementFailure, runtimeFailure } from '@wework/host-errors';
import type { HostCall, HandlerKit } from './HandlerKit.js';

/** `skills/setEnabled`, `skills/list`, `skills/read`. */
export function skillHandlers(kit: HandlerKit): HostHandlersPart<'skills/setEnabled' | 'skills/list' | 'skills/read', HostCall> {
  const { runtime, pluginInventory } = kit.services;
  return {
    'skills/setEnabled': async (params) => {
      const selector = 'path' in params ? { path: params.path } : { name: params.name };
      return E.mapLeft(managementFailure)(await (await pluginInventory()).management.setSkillEnabled(selector, params.enabled));
    },
    'skills/list': kit.withCodex(async (params: HostParamsOf<'skills/list'>) => {
      const cwd = kit.skillWorkspace(params);
      if (E.isLeft(cwd)) return cwd;
      // A rescan: a skill folder written since the last listing shows up in the picker.
      return E.mapLeft(runtimeFailure)(await listWorkspaceSkills(runtime.current().server.client, cwd.right, true));
    }),
    'skills/read': async ({ path, ...workspace }) => {
      const cwd = kit.skillWorkspace(workspace);
      if (E.isLeft(cwd)) return cwd;
      const viewed = await (await pluginInventory()).inventory.view();
      const listed = async (): Promise<E.Either<RuntimeFault, WorkspaceSkills>> => {
        const running = runtime.ready();
        return E.isLeft(running) ? running : listWorkspaceSkills(running.right.server.client, cwd.right, false);
      };
      const read = await readKnownSkill(path, viewed, listed);
      return E.mapLeft((error: KnownSkillReadError): HostFailure => {
        if (error._tag !== 'ListingFailed') return skillReadFailure(error);
        return E.isLeft(viewed) ? inventoryFailure(viewed.left) : runtimeFailure(error.error);
      })(read);
    },
  };
}
