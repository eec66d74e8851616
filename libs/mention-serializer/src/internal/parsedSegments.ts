/**
 * The segments `parse` and `tokenize` build, made here rather than through the public
 * constructors `text`, `skill`, `app` and `plugin`. The objects are the same (same keys, same order,
 * so the same hidden class); what differs is where they are allocated.
 *
 * V8 decides for every object literal in the source (an allocation site) whether to allocate its
 * objects directly in the old generation ("pretenuring"), from how many of them survived
 * young-generation collections. The public constructors are shared with every caller, and callers
 * that keep documents alive (a composer history, a generated corpus) make V8 tenure them. A parse
 * through them then allocates its result in the old generation too: a result dropped right away
 * stays until the next full collection, and every scavenge until then copies and promotes the young
 * strings it points to — a cost that grows with the size of the input and with the heap. Literals of
 * their own give the parser's allocations feedback from the parser's results only.
 */
import type { AppMention, PluginMention, SkillMention, TextSegment } from '../Document.js';

/** `text(value)`, allocated at the parser's own site. */
export const parsedText = (value: string): TextSegment => ({ _tag: 'Text', text: value });

/** `skill(name, path)`, allocated at the parser's own site. */
export const parsedSkill = (name: string, path: string): SkillMention => ({ _tag: 'Mention', kind: 'skill', name, path });

/** `app(name, connectorId)`, allocated at the parser's own site. */
export const parsedApp = (name: string, connectorId: string): AppMention => ({ _tag: 'Mention', kind: 'app', name, connectorId });

/** `plugin(name, pluginName, marketplaceName)`, allocated at the parser's own site. */
export const parsedPlugin = (name: string, pluginName: string, marketplaceName: string): PluginMention => ({
  _tag: 'Mention',
  kind: 'plugin',
  name,
  pluginName,
  marketplaceName,
});
