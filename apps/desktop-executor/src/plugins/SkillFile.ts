/**
 * `skills/read`: the `SKILL.md` of a skill the inventory lists, found by its exact path among the
 * inventory's skills (never any other file: a path no installed plugin lists is `SkillNotFound`), read
 * without following a link, at most {@link SKILL_READ_MAX_BYTES} of it.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import * as E from 'fp-ts/lib/Either.js';
import type { InstalledInventory } from '@wework/host-protocol';

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
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return E.left({ _tag: 'SkillUnreadable' });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return E.left({ _tag: 'SkillUnreadable' });
    const buffer = Buffer.alloc(SKILL_READ_MAX_BYTES + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const truncated = filled > SKILL_READ_MAX_BYTES;
    // Cut at a character boundary: a trailing partial UTF-8 sequence is dropped, not shown as a replacement character.
    const markdown = new TextDecoder('utf-8', { fatal: false }).decode(buffer.subarray(0, Math.min(filled, SKILL_READ_MAX_BYTES)), { stream: truncated });
    return E.right({ name, markdown, truncated });
  } catch {
    return E.left({ _tag: 'SkillUnreadable' });
  } finally {
    await handle.close();
  }
}
