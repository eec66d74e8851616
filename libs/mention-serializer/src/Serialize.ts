/**
 * Composer document → Codex-compatible markdown. Every function is pure and total.
 *
 * - Skills: `[$name](/absolute/path/to/SKILL.md)`; an absolute path that is not a `SKILL.md` uses
 *   the legacy form `[$name](skill:///absolute/path)` so that it still reads back as a skill.
 * - Apps: `[$name](app://connector_id)`.
 * - Plugins: `[@name](plugin://plugin_name@marketplace_name)` (the sigil Codex acts on).
 */
import { isSkillFilePath, normalize, type ComposerDocument, type Mention } from './Document.js';
import type { SourceRange } from './Parse.js';
import { encodePluginName, encodeTarget, escapeLabel, escapeText } from './internal/escaping.js';

/** The sigil a mention is written with: `@` for plugins, `$` for skills and apps. */
export function sigilOf(mention: Mention): '$' | '@' {
  return mention.kind === 'plugin' ? '@' : '$';
}

/**
 * The target a mention links to, as Codex reads it (not percent-encoded): the skill's path, `app://id`
 * or `plugin://name@marketplace`. This is also the `path` of the structured turn input item.
 *
 * @example
 * targetOf(plugin('Sites', 'wegent-sites', 'wegent')) // 'plugin://wegent-sites@wegent'
 */
export function targetOf(mention: Mention): string {
  switch (mention.kind) {
    case 'skill':
      return mention.path;
    case 'app':
      return `app://${mention.connectorId}`;
    case 'plugin':
      return `plugin://${mention.pluginName}@${mention.marketplaceName}`;
  }
}

/**
 * The markdown of one mention.
 *
 * @example
 * serializeMention(app('Drive', 'connector_1')) // '[$Drive](app://connector_1)'
 */
export function serializeMention(mention: Mention): string {
  const label = `[${sigilOf(mention)}${escapeLabel(mention.name)}]`;
  switch (mention.kind) {
    case 'skill':
      return `${label}(${isSkillFilePath(mention.path) ? '' : 'skill://'}${encodeTarget(mention.path)})`;
    case 'app':
      return `${label}(app://${encodeTarget(mention.connectorId)})`;
    case 'plugin':
      return `${label}(plugin://${encodePluginName(mention.pluginName)}@${encodeTarget(mention.marketplaceName)})`;
  }
}

/** Serialized markdown together with where each mention landed in it. */
export interface SerializedDocument {
  readonly markdown: string;
  /** One entry per mention, in document order; ranges in UTF-16 code units of `markdown`. */
  readonly mentions: ReadonlyArray<{ readonly mention: Mention; readonly source: SourceRange }>;
}

/**
 * Serializes a document and reports the span of every mention in the result.
 */
export function serializeWithRanges(doc: ComposerDocument): SerializedDocument {
  const segments = normalize(doc);
  const parts: string[] = [];
  const mentions: Array<{ mention: Mention; source: SourceRange }> = [];
  let length = 0;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index];
    if (segment === undefined) continue;
    const part =
      segment._tag === 'Text' ? escapeText(segment.text, segments[index + 1]?._tag === 'Mention') : serializeMention(segment);
    if (segment._tag === 'Mention') mentions.push({ mention: segment, source: { start: length, end: length + part.length } });
    parts.push(part);
    length += part.length;
  }
  return { markdown: parts.join(''), mentions };
}

/**
 * Serializes a document to markdown. For a document that passes `validateDocument`,
 * `parse(serialize(doc))` equals `normalize(doc)`.
 *
 * @example
 * serialize([text('Summarise with '), skill('pdf', '/skills/pdf/SKILL.md')])
 * // 'Summarise with [$pdf](/skills/pdf/SKILL.md)'
 */
export function serialize(doc: ComposerDocument): string {
  return serializeWithRanges(doc).markdown;
}
