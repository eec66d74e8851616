/**
 * `workspaceSkillsOf`: Codex's `skills/list` answer as a host sees it, for any answer: each path once, a
 * plugin's skill scoped `plugin`, every bound kept, nothing over a bound answered, and nothing invented.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SkillsListResponse } from '@wework/codex-protocol';
import { SKILL_DESCRIPTION_MAX_CHARS, SKILL_NAME_MAX_CHARS, SKILL_PATH_MAX_CHARS, SKILLS_LIST_MAX, WorkspaceSkill } from '@wework/host-protocol';
import { workspaceSkillsOf } from '../src/plugins/WorkspaceSkills.js';

type CodexSkill = SkillsListResponse['data'][number]['skills'][number];

const codexSkill = fc.record({
  name: fc.oneof(fc.string({ maxLength: 12 }), fc.string({ minLength: SKILL_NAME_MAX_CHARS - 2, maxLength: SKILL_NAME_MAX_CHARS + 2 })),
  description: fc.oneof(fc.string({ maxLength: 12 }), fc.string({ minLength: SKILL_DESCRIPTION_MAX_CHARS - 2, maxLength: SKILL_DESCRIPTION_MAX_CHARS + 2 })),
  path: fc.oneof(fc.constantFrom('/a/SKILL.md', '/b/SKILL.md', '/c/SKILL.md'), fc.string({ maxLength: 12 }), fc.constant(`/${'p'.repeat(SKILL_PATH_MAX_CHARS)}`)),
  scope: fc.constantFrom('user', 'repo', 'system', 'admin', 'future-scope'),
  enabled: fc.boolean(),
  pluginId: fc.option(fc.constantFrom('demo@local', 'other@market'), { nil: null }),
}) as fc.Arbitrary<CodexSkill>;

const answer = (skills: ReadonlyArray<CodexSkill>, cwd = '/project'): SkillsListResponse => ({ data: [{ cwd, skills: [...skills], errors: [] }] });

/** Whether the host protocol can answer `skill` (its name and path within bounds, its scope one it knows). */
const answerable = (skill: CodexSkill): boolean => skill.name.length <= SKILL_NAME_MAX_CHARS && skill.path.length <= SKILL_PATH_MAX_CHARS && (skill.pluginId !== null || skill.scope !== 'future-scope');

describe('workspaceSkillsOf', () => {
  it('keeps every bound and answers only what Codex listed', () => {
    fc.assert(
      fc.property(fc.array(codexSkill, { maxLength: 40 }), (skills) => {
        const listed = workspaceSkillsOf(answer(skills), null);
        expect(listed.cwd).toBe('/project');
        expect(new Set(listed.skills.map((skill) => skill.path)).size).toBe(listed.skills.length);
        for (const skill of listed.skills) {
          expect(WorkspaceSkill.is(skill)).toBe(true);
          expect(skill.name.length).toBeLessThanOrEqual(SKILL_NAME_MAX_CHARS);
          expect(skill.path.length).toBeLessThanOrEqual(SKILL_PATH_MAX_CHARS);
          expect(skill.description.length).toBeLessThanOrEqual(SKILL_DESCRIPTION_MAX_CHARS);
          const source = skills.find((candidate) => candidate.path === skill.path && answerable(candidate));
          expect(skill.name).toBe(source?.name);
          expect(source).toBeDefined();
          expect(skill.scope).toBe(source?.pluginId != null ? 'plugin' : source?.scope);
          expect(skill.description).toBe(source?.description.slice(0, SKILL_DESCRIPTION_MAX_CHARS));
        }
        // A skill within its bounds, of a known scope, is answered unless its path came earlier.
        const first = skills.find(answerable);
        if (first !== undefined) expect(listed.skills.map((skill) => skill.path)).toContain(first.path);
      }),
    );
  });

  it('answers at most the bound, and says it cut', () => {
    const many = Array.from({ length: SKILLS_LIST_MAX + 3 }, (_, i): CodexSkill => ({ name: `s${i}`, description: '', path: `/s${i}/SKILL.md`, scope: 'user', enabled: true, pluginId: null }));
    const listed = workspaceSkillsOf(answer(many), '/asked');
    expect(listed).toMatchObject({ cwd: '/asked', truncated: true });
    expect(listed.skills).toHaveLength(SKILLS_LIST_MAX);
    expect(workspaceSkillsOf(answer(many.slice(0, SKILLS_LIST_MAX)), null)).toMatchObject({ truncated: false });
  });
});
