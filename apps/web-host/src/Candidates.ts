/**
 * What the composer's picker offers, from the one inventory (`plugins/installed`): each enabled
 * plugin as a plugin mention, its enabled skills (with a `SKILL.md` path) as skill mentions and its
 * enabled apps as app mentions. `$` filters skills and apps, `@` plugins.
 *
 * Every function here is pure.
 */
import { app, plugin, skill, type Mention } from '@wework/mention-serializer';
import type { InstalledPlugin } from '@wework/host-protocol';

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

/** The picker's entries of an inventory, in its order: each plugin, then its skills, then its apps. */
export function candidatesOf(plugins: ReadonlyArray<InstalledPlugin>): ReadonlyArray<Candidate> {
  const out: Candidate[] = [];
  for (const p of plugins) {
    if (!p.enabled || p.status.kind === 'repairRequired' || p.status.kind === 'installing') continue;
    const title = p.displayName ?? p.name;
    out.push({ key: `plugin:${p.pluginId}`, mention: plugin(title, p.name, p.marketplace), detail: p.shortDescription ?? `Plugin from ${p.marketplace}` });
    for (const s of p.skills) if (s.enabled && s.path !== null) out.push({ key: `skill:${s.path}`, mention: skill(s.name, s.path), detail: `Skill of ${title}` });
    for (const a of p.apps) if (a.enabled) out.push({ key: `app:${a.id}`, mention: app(a.name, a.id), detail: `App of ${title}` });
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
