import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostPort } from '../src/HostPort.js';
import type { PluginRef } from '@wework/plugin-inventory';
import { cacheDirectoryOf } from '../src/Layout.js';
import { recoverAll } from '../src/Recovery.js';
import { commitChange, type SyncChange } from '../src/Transaction.js';
import { createNodeFileSystem, createNodeHost, createNodePorts } from '../src/node/index.js';
import { instrumentFileSystem, type Mutation } from '@wework/ports/testing';
import { pluginPackage, sandbox, sourceOf, type Sandbox } from './support/homes.js';

const plugin: PluginRef = { name: 'forms', marketplace: 'wework' };
const ports = createNodePorts({ durability: 'none' });
const restarted: HostPort = { ...createNodeHost(), isAlive: () => async () => false };
const install = (version: string): SyncChange => ({ _tag: 'Install', plugin, version, source: sourceOf(pluginPackage(version)), at: '2025-06-01T00:00:00.000Z' });
const boxes: Sandbox[] = [];
afterEach(() => {
  for (const box of boxes.splice(0)) box.remove();
});

/** Starts `change` and freezes it forever just before the first mutation `stop` matches — a process that stopped there. */
const freezeAt = async (box: Sandbox, change: SyncChange, stop: (m: Mutation) => boolean): Promise<void> => {
  let reached!: () => void;
  const frozen = new Promise<void>((resolve) => (reached = resolve));
  const fs = instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), (m) => {
    if (!stop(m)) return Promise.resolve(true);
    reached();
    return new Promise<boolean>(() => undefined);
  });
  void commitChange({ fs, host: createNodeHost() }, box.homes, change)();
  await frozen;
};

describe('restart recovery', () => {
  it('a destination the user changed after our write is a conflict: kept, reported, never overwritten', async () => {
    const box = sandbox();
    boxes.push(box);
    await commitChange(ports, box.homes, install('1.0.0'))();
    const settings = join(box.homes.claudeHome as string, 'settings.json');
    const settingsBefore = readFileSync(settings, 'utf8');
    // Stopped after publishing everything, before the commit mark.
    await freezeAt(box, install('2.0.0'), (m) => m.operation === 'writeFileDurable' && m.path.includes('/.journal.') && existsSync(join(box.homes.codexHome, cacheDirectoryOf(plugin, '2.0.0'))));
    const marketplaceDir = join(box.homes.codexHome, 'plugins/marketplaces/wework/.agents/plugins');
    const marketplace = join(marketplaceDir, 'marketplace.json');
    writeFileSync(marketplace, `${readFileSync(marketplace, 'utf8')}\n`);
    const edited = readFileSync(marketplace, 'utf8');
    const report = await recoverAll(ports.fs, restarted, box.homes)();
    expect(report).toEqual(E.right({ plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Conflict', conflicts: [{ path: marketplace, reason: 'ChangedAfterWrite' }] } }], brokeStaleLock: 1 }));
    expect(readFileSync(marketplace, 'utf8')).toBe(edited);
    // Everything else went back.
    expect(readFileSync(settings, 'utf8')).toBe(settingsBefore);
    expect(readdirSync(join(box.homes.codexHome, 'plugins/cache/wework/forms'))).toEqual(['1.0.0']);
    // The journal and the config backup stay for a person to look at; the plugin needs repair.
    expect(readdirSync(box.homes.stateDirectory).filter((n) => n.startsWith('journal.'))).toEqual(['journal.forms@wework.json']);
    expect(readdirSync(marketplaceDir).some((n) => n.startsWith('.marketplace.json.backup-'))).toBe(true);
    expect(await commitChange(ports, box.homes, install('2.0.0'))()).toMatchObject({ left: { _tag: 'PendingConflict', plugin: 'forms@wework' } });
  });

  it('something that appeared at a new destination is not ours: reported, not removed', async () => {
    const box = sandbox();
    boxes.push(box);
    const dest = join(box.homes.claudeHome as string, cacheDirectoryOf(plugin, '1.0.0'));
    // Stopped after staging, before the first publication.
    await freezeAt(box, install('1.0.0'), (m) => m.operation === 'rename' && m.path.startsWith(join(box.homes.codexHome, 'plugins/cache')));
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, 'theirs.txt'), 'not ours');
    const report = await recoverAll(ports.fs, restarted, box.homes)();
    expect(report).toMatchObject({ right: { plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Conflict', conflicts: [{ path: dest, reason: 'UnprovenOwnership' }] } }] } });
    expect(readFileSync(join(dest, 'theirs.txt'), 'utf8')).toBe('not ours');
    expect(existsSync(join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0')))).toBe(false);
  });

  it('a journal that is not a journal is reported, not acted on', async () => {
    const box = sandbox();
    boxes.push(box);
    writeFileSync(join(box.homes.stateDirectory, 'journal.forms@wework.json'), '{"oops":');
    expect(await recoverAll(ports.fs, ports.host, box.homes)()).toMatchObject({
      right: { plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Conflict', conflicts: [{ reason: 'UnreadableJournal' }] } }] },
    });
  });
});
