/**
 * `skills/read`: only a path the inventory lists is read, a link is not followed, and a long file is
 * cut at the bound (and at a character boundary) with `truncated`.
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstalledInventory } from '@wework/host-protocol';
import { readInventorySkill, SKILL_READ_MAX_BYTES } from '../src/plugins/SkillFile.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const inventoryWith = (paths: ReadonlyArray<string>): InstalledInventory => ({
  deviceId: 'this-device',
  fromSnapshot: false,
  savedAt: null,
  plugins: [
    {
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
      skills: paths.map((path, i) => ({ name: `demo:skill${i}`, path, enabled: true })),
      apps: [],
    },
  ],
});

describe('readInventorySkill', () => {
  it('reads a listed skill, refuses a path the inventory does not list and does not follow a link', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skill-file-'));
    dirs.push(dir);
    const file = join(dir, 'SKILL.md');
    await writeFile(file, '---\nname: greet\n---\n\nGreet warmly.\n');
    const link = join(dir, 'LINK.md');
    await symlink(file, link);
    const inventory = inventoryWith([file, link]);
    expect(await readInventorySkill(inventory, file)).toEqual({ _tag: 'Right', right: { name: 'demo:skill0', markdown: '---\nname: greet\n---\n\nGreet warmly.\n', truncated: false } });
    expect(await readInventorySkill(inventory, join(dir, 'other', 'SKILL.md'))).toEqual({ _tag: 'Left', left: { _tag: 'SkillNotFound' } });
    expect(await readInventorySkill(inventory, link)).toEqual({ _tag: 'Left', left: { _tag: 'SkillUnreadable' } });
  });

  it('cuts a long file at the bound, at a character boundary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skill-file-'));
    dirs.push(dir);
    const file = join(dir, 'SKILL.md');
    // 'é' is two bytes: the bound falls inside one when preceded by one ASCII byte.
    await writeFile(file, `x${'é'.repeat(SKILL_READ_MAX_BYTES)}`);
    const read = await readInventorySkill(inventoryWith([file]), file);
    expect(read._tag).toBe('Right');
    if (read._tag !== 'Right') return;
    expect(read.right.truncated).toBe(true);
    expect(read.right.markdown.includes('\uFFFD')).toBe(false);
    expect(Buffer.byteLength(read.right.markdown)).toBe(SKILL_READ_MAX_BYTES - 1);
  });
});
