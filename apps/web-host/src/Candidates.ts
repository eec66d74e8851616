/**
 * What the composer's picker offers, from the one inventory (`plugins/installed`): each enabled
 * plugin as a plugin mention, its enabled skills (with a `SKILL.md` path) as skill mentions and its
 * enabled apps as app mentions; then the user's own and the workspace's enabled skills Codex lists
 * (`skills/list`), each `SKILL.md` once. `$` filters skills and apps, `@` plugins.
 *
 * Every function here is pure.
 */
import { app, plugin, skill, type Mention } from '@wework/mention-serializer';
import type { InstalledPlugin, SkillScope, WorkspaceSkill } from '@wework/host-protocol';

/** One entry of the picker. */
export interface Candidate {
  /** Unique within the list: the mention's kind and target. */
  readonly key: string;
  readonly mention: Mention;
  /** A short line under the name (the plugin's description, or the plugin a skill or app comes from). */
  readonly detail: string;
}

/** How many entries the picker shows at most. */
export const MAX_CANDIDATES = 20;

/** The line under a skill of the workspace listing, by where it comes from (only these scopes are offered). */
const SCOPE_DETAIL: Partial<Readonly<Record<SkillScope, string>>> = { user: 'Your skill', repo: 'Skill of this workspace', admin: 'Skill set up on this machine' };

/**
 * The picker's entries: an inventory's in its order (each plugin, then its skills, then its apps), then
 * the enabled user, workspace and machine skills of `skills` (a plugin's skill comes with its plugin,
 * Codex's bundled ones are not offered); a `SKILL.md` both list is offered once.
 */
export function candidatesOf(plugins: ReadonlyArray<InstalledPlugin>, skills: ReadonlyArray<WorkspaceSkill> = []): ReadonlyArray<Candidate> {
  const out: Candidate[] = [];
  for (const p of plugins) {
    if (!p.enabled || p.status.kind === 'repairRequired' || p.status.kind === 'installing') continue;
    const title = p.displayName ?? p.name;
    out.push({ key: `plugin:${p.pluginId}`, mention: plugin(title, p.name, p.marketplace), detail: p.shortDescription ?? `Plugin from ${p.marketplace}` });
    for (const s of p.skills) if (s.enabled && s.path !== null) out.push({ key: `skill:${s.path}`, mention: skill(s.name, s.path), detail: `Skill of ${title}` });
    for (const a of p.apps) if (a.enabled) out.push({ key: `app:${a.id}`, mention: app(a.name, a.id), detail: `App of ${title}` });
  }
  for (const s of skills) {
    const detail = SCOPE_DETAIL[s.scope];
    if (s.enabled && detail !== undefined) out.push({ key: `skill:${s.path}`, mention: skill(s.name, s.path), detail });
  }
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.key) && seen.add(c.key) !== undefined);
}

/**
 * The entries a picker shows: those of the sigil (`$` skills and apps, `@` plugins, `null` every kind)
 * whose name holds the query (case-insensitive), names starting with it first, at most {@link MAX_CANDIDATES}.
 */
export function filterCandidates(candidates: ReadonlyArray<Candidate>, sigil: '$' | '@' | null, query: string): ReadonlyArray<Candidate> {
  const q = query.toLowerCase();
  const fits = candidates.filter((c) => (sigil === null || (sigil === '@') === (c.mention.kind === 'plugin')) && c.mention.name.toLowerCase().includes(q));
  const starts = fits.filter((c) => c.mention.name.toLowerCase().startsWith(q));
  return [...starts, ...fits.filter((c) => !starts.includes(c))].slice(0, MAX_CANDIDATES);
}
