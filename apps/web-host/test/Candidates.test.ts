/**
 * `candidatesOf`: the picker offers the inventory's plugins, skills and apps, then the user's, workspace's
 * and machine's enabled skills Codex lists, each `SKILL.md` once, never Codex's bundled skills or a
 * plugin's skill a second time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstalledPlugin, WorkspaceSkill } from '@wework/host-protocol';
import { candidatesOf } from '../src/Candidates.js';

const demo: InstalledPlugin = {
  pluginId: 'demo@local',
  name: 'demo',
  marketplace: 'local',
  source: 'custom',
  enabled: true,
  status: { kind: 'ok' },
  version: '1.0.0',
  displayName: 'Demo',
  shortDescription: null,
  defaultPrompt: null,
  skills: [{ name: 'demo:greet', path: '/cache/demo/skills/greet/SKILL.md', enabled: true }],
  apps: [],
};

const listed = (name: string, path: string, scope: WorkspaceSkill['scope'], enabled = true): WorkspaceSkill => ({ name, description: '', path, scope, enabled, pluginId: scope === 'plugin' ? 'demo@local' : null });

describe('candidatesOf', () => {
  it("adds the user's and the workspace's skills after the inventory's, each SKILL.md once", () => {
    const skills = [
      listed('demo:greet', '/cache/demo/skills/greet/SKILL.md', 'plugin'),
      listed('notes', '/home/.agents/skills/notes/SKILL.md', 'user'),
      listed('build', '/project/.agents/skills/build/SKILL.md', 'repo'),
      listed('imagegen', '/codex/skills/.system/imagegen/SKILL.md', 'system'),
      listed('off', '/home/.agents/skills/off/SKILL.md', 'user', false),
      listed('notes', '/home/.agents/skills/notes/SKILL.md', 'user'),
    ];
    expect(candidatesOf([demo], skills).map((c) => [c.mention.kind, c.mention.name, c.detail])).toEqual([
      ['plugin', 'Demo', 'Plugin from local'],
      ['skill', 'demo:greet', 'Skill of Demo'],
      ['skill', 'notes', 'Your skill'],
      ['skill', 'build', 'Skill of this workspace'],
    ]);
  });

  it('offers every enabled user, repo and admin skill exactly once, whatever the listing', () => {
    const scope = fc.constantFrom<WorkspaceSkill['scope']>('user', 'repo', 'plugin', 'system', 'admin');
    const skill = fc.record({ name: fc.string({ maxLength: 6 }), path: fc.constantFrom('/a', '/b', '/c', '/cache/demo/skills/greet/SKILL.md'), scope, enabled: fc.boolean() });
    fc.assert(
      fc.property(fc.array(skill, { maxLength: 12 }), (entries) => {
        const skills = entries.map((e) => listed(e.name, e.path, e.scope, e.enabled));
        const offered = candidatesOf([demo], skills).filter((c) => c.mention.kind === 'skill');
        const paths = offered.map((c) => (c.mention.kind === 'skill' ? c.mention.path : ''));
        expect(new Set(paths).size).toBe(paths.length);
        const expected = new Set(['/cache/demo/skills/greet/SKILL.md', ...skills.filter((s) => s.enabled && ['user', 'repo', 'admin'].includes(s.scope)).map((s) => s.path)]);
        expect(new Set(paths)).toEqual(expected);
      }),
    );
  });
});
