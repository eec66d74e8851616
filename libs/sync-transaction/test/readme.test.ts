/**
 * The example at the top of README.md, kept compiling and passing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { expect, test } from 'vitest';
import { commitChange, recoverAll, type PackageEntry } from '../src/index.js';
import { createNodePorts } from '../src/node/index.js';
import { sandbox } from './support/homes.js';

test('README example', async () => {
  const box = sandbox('sync-tx-readme-');
  const codexHome = box.homes.codexHome;
  const claudeHome = box.homes.claudeHome as string;
  const skillBytes = new TextEncoder().encode('---\nname: fill\n---\n');
  const now = '2025-01-01T00:00:00.000Z';
  try {
    // --- README example begins ---
    const ports = createNodePorts();
    const homes = { codexHome, claudeHome, stateDirectory: join(codexHome, 'wework-plugins') };
    await recoverAll(ports.fs, ports.host, homes)(); // once at startup: finish or undo interrupted work

    const plugin = { name: 'forms', marketplace: 'wework' };
    const entries: PackageEntry[] = [{ kind: 'file', path: 'skills/fill/SKILL.md', mode: 0o644, bytes: skillBytes }]; // from the extractor
    const installed = await commitChange(ports, homes, { _tag: 'Install', plugin, version: '1.2.0', source: { extract: () => TE.right(entries) }, at: now })();
    if (E.isLeft(installed)) console.warn(installed.left._tag); // PackageRejected, ParseFailed, OwnershipConflict, TransactionRolledBack, …

    await commitChange(ports, homes, { _tag: 'Remove', plugin, at: now })(); // caches retained, tombstone kept
    // --- README example ends ---
    expect(installed).toMatchObject({ right: { outcome: 'Committed' } });
    // The removal keeps the caches: the installed skill is still there, for Codex and for Claude.
    expect(readFileSync(join(codexHome, 'plugins/cache/wework/forms/1.2.0/skills/fill/SKILL.md'), 'utf8')).toContain('name: fill');
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).not.toContain('forms@wework');
    expect(readFileSync(join(claudeHome, 'plugins/cache/wework/forms/1.2.0/skills/fill/SKILL.md'), 'utf8')).toContain('name: fill');
  } finally {
    box.remove();
  }
});
