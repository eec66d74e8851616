/**
 * The composer's content as data: text segments and indivisible mentions of skills, apps and
 * plugins. Every function here is pure: plain data in, plain data out.
 */
import * as E from 'fp-ts/lib/Either.js';
import { asciiSkillFileNameAt, isAbsolutePathAt } from './internal/paths.js';

/** Plain text the user typed. */
export interface TextSegment {
  readonly _tag: 'Text';
  readonly text: string;
}

/** A skill, addressed by the absolute path of its `SKILL.md`. */
export interface SkillMention {
  readonly _tag: 'Mention';
  readonly kind: 'skill';
  /** Display name, shown as `$name`. */
  readonly name: string;
  /** Absolute path of the skill's `SKILL.md` (POSIX `/...`, Windows `C:\...` or `\\server\...`). */
  readonly path: string;
}

/** An app (connector), addressed by its connector id: `app://<connectorId>`. */
export interface AppMention {
  readonly _tag: 'Mention';
  readonly kind: 'app';
  /** Display name, shown as `$name`. */
  readonly name: string;
  readonly connectorId: string;
}

/** A plugin, addressed by plugin name and marketplace name: `plugin://<plugin>@<marketplace>`. */
export interface PluginMention {
  readonly _tag: 'Mention';
  readonly kind: 'plugin';
  /** Display name, shown as `@name`. */
  readonly name: string;
  readonly pluginName: string;
  readonly marketplaceName: string;
}

/** An indivisible inline mention: the cursor stops only before or after it. */
export type Mention = SkillMention | AppMention | PluginMention;

/** What a mention refers to. */
export type MentionKind = Mention['kind'];

/** One piece of composer content. */
export type Segment = TextSegment | Mention;

/** Composer content: segments in the order they appear. */
export type ComposerDocument = ReadonlyArray<Segment>;

/**
 * A text segment.
 *
 * @example
 * text('hello') // { _tag: 'Text', text: 'hello' }
 */
export const text = (value: string): TextSegment => ({ _tag: 'Text', text: value });

/**
 * A skill mention.
 *
 * @example
 * skill('pdf', '/home/me/.codex/skills/pdf/SKILL.md')
 */
export const skill = (name: string, path: string): SkillMention => ({ _tag: 'Mention', kind: 'skill', name, path });

/**
 * An app mention.
 *
 * @example
 * app('Google Drive', 'connector_google_drive')
 */
export const app = (name: string, connectorId: string): AppMention => ({ _tag: 'Mention', kind: 'app', name, connectorId });

/**
 * A plugin mention.
 *
 * @example
 * plugin('Sites', 'wegent-sites', 'wegent') // refers to plugin://wegent-sites@wegent
 */
export const plugin = (name: string, pluginName: string, marketplaceName: string): PluginMention => ({
  _tag: 'Mention',
  kind: 'plugin',
  name,
  pluginName,
  marketplaceName,
});

/**
 * The normal form of a document: no empty text segments and no two text segments in a row.
 * {@link parse} always returns normal forms, so `parse(serialize(doc))` equals `normalize(doc)`.
 *
 * @example
 * normalize([text('a'), text(''), text('b')]) // [text('ab')]
 */
export function normalize(doc: ComposerDocument): ComposerDocument {
  const out: Segment[] = [];
  for (const segment of doc) {
    if (segment._tag === 'Text') {
      if (segment.text === '') continue;
      const last = out[out.length - 1];
      if (last?._tag === 'Text') {
        out[out.length - 1] = text(last.text + segment.text);
        continue;
      }
    }
    out.push(segment);
  }
  return out;
}

/** Why a mention cannot be serialized so that it parses back to itself. */
export type InvalidMention =
  | { readonly _tag: 'EmptyName'; readonly index: number }
  | { readonly _tag: 'EmptyTarget'; readonly index: number; readonly field: 'path' | 'connectorId' | 'pluginName' | 'marketplaceName' }
  | { readonly _tag: 'SkillPathNotAbsolute'; readonly index: number; readonly path: string };

/**
 * Whether `path` is absolute: POSIX (`/x`), a Windows drive (`C:\x`, `C:/x`) or a UNC share (`\\host\x`).
 */
export function isAbsolutePath(path: string): boolean {
  return isAbsolutePathAt(path, 0, path.length);
}

/**
 * Whether `path` is an absolute path whose file name is `SKILL.md` (any case), the form Codex
 * recognises as a skill link.
 */
export function isSkillFilePath(path: string): boolean {
  if (!isAbsolutePath(path)) return false;
  const asciiAnswer = asciiSkillFileNameAt(path, 0, path.length);
  if (asciiAnswer !== undefined) return asciiAnswer;
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(cut + 1).toLowerCase() === 'skill.md';
}

/**
 * Checks that every mention round-trips: a non-empty name, non-empty targets, and an absolute skill
 * path (ending in `SKILL.md` or not: other absolute paths serialize in the legacy `skill://` form).
 * Returns the first problem found, with the segment's index.
 *
 * @example
 * validateDocument([app('', 'x')]) // left({ _tag: 'EmptyName', index: 0 })
 */
export function validateDocument(doc: ComposerDocument): E.Either<InvalidMention, ComposerDocument> {
  for (let index = 0; index < doc.length; index++) {
    const segment = doc[index];
    if (segment === undefined || segment._tag === 'Text') continue;
    const problem = mentionProblem(segment, index);
    if (problem !== null) return E.left(problem);
  }
  return E.right(doc);
}

/** What {@link validateDocument} finds wrong with one mention at `index`, or null. */
export function mentionProblem(mention: Mention, index: number): InvalidMention | null {
  if (mention.name === '') return { _tag: 'EmptyName', index };
  switch (mention.kind) {
    case 'skill':
      if (mention.path === '') return { _tag: 'EmptyTarget', index, field: 'path' };
      return isAbsolutePath(mention.path) ? null : { _tag: 'SkillPathNotAbsolute', index, path: mention.path };
    case 'app':
      return mention.connectorId === '' ? { _tag: 'EmptyTarget', index, field: 'connectorId' } : null;
    case 'plugin':
      if (mention.pluginName === '') return { _tag: 'EmptyTarget', index, field: 'pluginName' };
      return mention.marketplaceName === '' ? { _tag: 'EmptyTarget', index, field: 'marketplaceName' } : null;
  }
}
