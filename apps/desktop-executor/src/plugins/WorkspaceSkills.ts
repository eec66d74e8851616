/**
 * `skills/list` and the workspace half of `skills/read`: the skills Codex sees for a workspace, read from
 * the app-server's own `skills/list` (decoded by the client with `@wework/codex-protocol`'s codecs) and
 * bounded before they reach a host; a `SKILL.md` is read only when that listing (or the plugin inventory)
 * has exactly its path.
 */
import * as E from 'fp-ts/lib/Either.js';
import { SkillsList as CodexSkillsList, type SkillsListResponse } from '@wework/codex-protocol';
import type { AppServerClient } from '@wework/app-server-client';
import { SKILL_DESCRIPTION_MAX_CHARS, SKILL_NAME_MAX_CHARS, SKILL_PATH_MAX_CHARS, SKILLS_LIST_MAX, SkillScope, type InstalledInventory, type WorkspaceSkill } from '@wework/host-protocol';
import type { RuntimeFault } from '@wework/host-errors';
import { runtimeErrorOf } from '../runtime/RuntimeError.js';
import { readInventorySkill, readSkillFile, type SkillReadError, type SkillText } from './SkillFile.js';

/** The skills of one workspace, as a host sees them. */
export interface WorkspaceSkills {
  /** The workspace Codex listed them for. */
  readonly cwd: string;
  readonly skills: WorkspaceSkill[];
  /** Whether Codex listed more than {@link SKILLS_LIST_MAX}. */
  readonly truncated: boolean;
}

/**
 * The host's view of Codex's `skills/list` answer: each skill once (by path), a plugin's skill scoped
 * `plugin`, a skill whose name or path is over its bound left out (a cut one would name another skill or
 * file), and one of a scope this protocol does not know left out too; descriptions cut, at most {@link SKILLS_LIST_MAX}.
 */
export function workspaceSkillsOf(response: SkillsListResponse, cwd: string | null): WorkspaceSkills {
  const seen = new Set<string>();
  const skills: WorkspaceSkill[] = [];
  let truncated = false;
  for (const skill of response.data.flatMap((entry) => entry.skills)) {
    const scope = skill.pluginId !== null ? 'plugin' : SkillScope.is(skill.scope) ? skill.scope : null;
    if (scope === null || skill.name.length > SKILL_NAME_MAX_CHARS || skill.path.length > SKILL_PATH_MAX_CHARS || seen.has(skill.path)) continue;
    if (skills.length === SKILLS_LIST_MAX) {
      truncated = true;
      break;
    }
    seen.add(skill.path);
    skills.push({
      name: skill.name,
      description: skill.description.slice(0, SKILL_DESCRIPTION_MAX_CHARS),
      path: skill.path,
      scope,
      enabled: skill.enabled,
      pluginId: skill.pluginId,
    });
  }
  return { cwd: cwd ?? response.data[0]?.cwd ?? '', skills, truncated };
}

/**
 * The skills Codex sees for `cwd` (the app-server's own workspace when `null`); `rescan` makes Codex read
 * the skill folders again instead of answering from its cache.
 */
export async function listWorkspaceSkills(codex: AppServerClient, cwd: string | null, rescan: boolean): Promise<E.Either<RuntimeFault, WorkspaceSkills>> {
  const answered = await codex.request(CodexSkillsList, { ...(cwd === null ? {} : { cwds: [cwd] }), forceReload: rescan });
  return E.isLeft(answered) ? E.left(runtimeErrorOf(CodexSkillsList.method, answered.left)) : E.right(workspaceSkillsOf(answered.right, cwd));
}

/** Why `skills/read` found nothing: the file's own errors, or the listing that could not be asked. */
export type KnownSkillReadError = SkillReadError | { readonly _tag: 'ListingFailed'; readonly error: RuntimeFault };

/**
 * Reads the `SKILL.md` at `path` when the plugin inventory lists it, or else when Codex's `skills/list`
 * lists it for the workspace (`listed`, asked only then); any other path is `SkillNotFound`.
 */
export async function readKnownSkill(
  path: string,
  inventory: E.Either<unknown, InstalledInventory>,
  listed: () => Promise<E.Either<RuntimeFault, WorkspaceSkills>>,
): Promise<E.Either<KnownSkillReadError, SkillText>> {
  if (E.isRight(inventory)) {
    const read = await readInventorySkill(inventory.right, path);
    if (E.isRight(read) || read.left._tag !== 'SkillNotFound') return read;
  }
  const workspace = await listed();
  if (E.isLeft(workspace)) return E.left({ _tag: 'ListingFailed', error: workspace.left });
  const skill = workspace.right.skills.find((candidate) => candidate.path === path);
  return skill === undefined ? E.left({ _tag: 'SkillNotFound' }) : readSkillFile(skill.name, skill.path);
}
