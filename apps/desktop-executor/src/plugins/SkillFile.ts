/**
 * `skills/read`: the `SKILL.md` of a skill the inventory lists, found by its exact path among the
 * inventory's skills (never any other file: a path no installed plugin lists is `SkillNotFound`), read
 * without following a link, at most {@link SKILL_READ_MAX_BYTES} of it.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { InstalledInventory } from '@wework/host-protocol';
import { readSmallFile } from '@wework/ports/node';

/** How much of a `SKILL.md` is read at most. */
export const SKILL_READ_MAX_BYTES = 64 * 1024;

/** Why a skill could not be read. */
export type SkillReadError = { readonly _tag: 'SkillNotFound' } | { readonly _tag: 'SkillUnreadable' };

/** A skill's file, as read. */
export interface SkillText {
  readonly name: string;
  readonly markdown: string;
  readonly truncated: boolean;
}

/** Reads the `SKILL.md` at `path` when the inventory lists a skill with exactly that path. */
export async function readInventorySkill(inventory: InstalledInventory, path: string): Promise<E.Either<SkillReadError, SkillText>> {
  const skill = inventory.plugins.flatMap((p) => p.skills).find((s) => s.path !== null && s.path === path);
  if (skill === undefined || skill.path === null) return E.left({ _tag: 'SkillNotFound' });
  return readSkillFile(skill.name, skill.path);
}

/**
 * Reads the skill `name`'s file at `path` (a path a listing gave, never one a host chose): a regular file
 * opened without following a link, at most {@link SKILL_READ_MAX_BYTES} of it.
 */
export async function readSkillFile(name: string, path: string): Promise<E.Either<SkillReadError, SkillText>> {
  const read = await readSmallFile(path, { maxBytes: SKILL_READ_MAX_BYTES });
  if (E.isLeft(read)) return E.left({ _tag: 'SkillUnreadable' });
  const truncated = !read.right.complete;
  // Cut at a character boundary: a trailing partial UTF-8 sequence is dropped, not shown as a replacement character.
  const markdown = new TextDecoder('utf-8', { fatal: false }).decode(read.right.bytes, { stream: truncated });
  return E.right({ name, markdown, truncated });
}
