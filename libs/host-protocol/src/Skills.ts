/**
 * The skills Codex sees for a workspace through the host protocol (`skills/list`): the user's own skills,
 * the workspace's, the installed plugins' and Codex's bundled ones, each with where it comes from.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { nullable } from './internal/nullable.js';
import { requestDescriptor } from './Descriptor.js';


/** The most skills `skills/list` answers (`truncated` when Codex listed more). */
export const SKILLS_LIST_MAX = 500;
/** The longest skill name `skills/list` answers (a skill with a longer one is left out). */
export const SKILL_NAME_MAX_CHARS = 200;
/** The longest skill description `skills/list` answers (a longer one is cut). */
export const SKILL_DESCRIPTION_MAX_CHARS = 1024;
/** The longest `SKILL.md` path `skills/list` answers (a skill with a longer path is left out). */
export const SKILL_PATH_MAX_CHARS = 4096;

/**
 * Where a skill comes from: `user` (the user's own skill folders), `repo` (the workspace's), `plugin` (an
 * installed plugin's), `system` (bundled with Codex) or `admin` (the machine's administrator).
 */
export const SkillScope = t.keyof({ user: null, repo: null, plugin: null, system: null, admin: null }, 'SkillScope');
/** See the codec {@link SkillScope}. */
export type SkillScope = t.TypeOf<typeof SkillScope>;

/** One skill Codex sees for a workspace: its name, description, `SKILL.md` path, origin, switch and owning plugin. */
export const WorkspaceSkill = t.type(
  { name: t.string, description: t.string, path: t.string, scope: SkillScope, enabled: t.boolean, pluginId: nullable(t.string) },
  'WorkspaceSkill',
);
/** See the codec {@link WorkspaceSkill}. */
export type WorkspaceSkill = t.TypeOf<typeof WorkspaceSkill>;

/** Which workspace a skills request is about: a task's (`taskId`), a folder (`cwd`), or the executor's workspace (neither). */
export const SkillWorkspace = t.partial({ taskId: t.string, cwd: t.string }, 'SkillWorkspace');
/** See the codec {@link SkillWorkspace}. */
export type SkillWorkspace = t.TypeOf<typeof SkillWorkspace>;

/** `skills/list`: the skills Codex sees for the workspace (Codex's own `skills/list`), at most {@link SKILLS_LIST_MAX}. */
export const SkillsList = requestDescriptor('skills/list', SkillWorkspace, t.type({ cwd: t.string, skills: t.array(WorkspaceSkill), truncated: t.boolean }));
