/**
 * The cloud executor against the real app-server (only the model is scripted): desired-state messages
 * install and remove a pure-skill plugin that reaches the model and leaves it again, in Codex-only mode
 * nothing is written on the Claude side, stale Claude registrations of an older dual-runtime install
 * are cleaned up, bad messages are answered with error status lines, and a failed removal is retried
 * on its backoff.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { retryDelay } from '@wework/plugin-inventory';
import { skillsAvailable } from '@wework/scripted-model';
import { cacheDirectoryOf, commitChange, type Homes } from '@wework/sync-transaction';
import { createNodeFileSystem, createNodeHost, createNodePorts, directoryPackageSource } from '@wework/sync-transaction/node';
import { instrumentFileSystem } from '@wework/ports/testing';
import { cleanUp, desiredState, device, runTurn, skillPackage, startOn, startThread } from './support/cloudBox.js';
import { listTree } from '@wework/test-support';

afterEach(cleanUp);

const PLUGIN = { name: 'team-skills', marketplace: 'wegent' };
const SKILL = 'team-skills:standup';
const json = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('the cloud executor on the real app-server', () => {
  it('installs and removes a plugin from desired-state messages: the skill reaches the model, then leaves it; the Claude home is never written', async () => {
    const { dirs, model } = await device(3);
    const claudeBefore = listTree(dirs.claudeHome);
    expect(claudeBefore).toHaveLength(1); // the empty directory itself
    const { executor, statuses } = await startOn(dirs);
    const pid = executor.runtime.current()?.pid;
    const threadId = await startThread(executor, dirs.workspace);
    const skills = (request: number): ReadonlyArray<string> => skillsAvailable(model.requests[request] ?? { body: null }).map((skill) => skill.name);

    expect(await runTurn(executor, threadId, 'before install')).toBe('completed');
    expect(skills(0)).not.toContain(SKILL);

    const path = await skillPackage(dirs, PLUGIN.name, '1.0.0');
    const installed = await executor.handle(desiredState(1, [{ ...PLUGIN, version: '1.0.0', path }]));
    expect(installed).toEqual({
      type: 'status',
      outcome: 'Reconciled',
      ok: true,
      trigger: 'message',
      revision: 1,
      actions: [{ plugin: 'team-skills@wegent', action: 'install', reason: 'Missing', version: '1.0.0', result: 'Committed' }],
      runtime: { _tag: 'Reloaded', skills: ['standup'] },
    });
    expect(await runTurn(executor, threadId, 'after install')).toBe('completed');
    expect(skills(1)).toContain(SKILL);

    // The same desired state again changes nothing.
    expect(await executor.handle(desiredState(1, [{ ...PLUGIN, version: '1.0.0', path }]))).toMatchObject({ ok: true, actions: [], runtime: { _tag: 'NothingToApply' } });

    const removed = await executor.handle(desiredState(2, []));
    expect(removed).toMatchObject({ ok: true, revision: 2, actions: [{ plugin: 'team-skills@wegent', action: 'remove', reason: 'NotDesired', result: 'Committed' }], runtime: { _tag: 'Reloaded' } });
    expect(await runTurn(executor, threadId, 'after removal')).toBe('completed');
    expect(skills(2)).not.toContain(SKILL);

    // One app-server throughout, and not one byte on the Claude side.
    expect(executor.runtime.current()?.pid).toBe(pid);
    expect(listTree(dirs.claudeHome)).toEqual(claudeBefore);
    expect(statuses).toHaveLength(3);
  });

  it('removes the Claude registration, enablement and recorded caches an older dual-runtime install left, and nothing else on the Claude side', async () => {
    const { dirs } = await device(0);
    // The Claude home as a user and an older dual-runtime executor left it: a native plugin of another marketplace, then our dual installs.
    const native = join(dirs.claudeHome, 'plugins/cache/claude-market/native/1.0.0');
    mkdirSync(native, { recursive: true });
    writeFileSync(join(native, 'README.md'), 'not ours');
    writeFileSync(join(dirs.claudeHome, 'settings.json'), `${JSON.stringify({ theme: 'dark', enabledPlugins: { 'native@claude-market': true } }, null, 2)}\n`);
    writeFileSync(
      join(dirs.claudeHome, 'plugins/installed_plugins.json'),
      `${JSON.stringify({ version: 2, plugins: { 'native@claude-market': [{ scope: 'user', installPath: native, version: '1.0.0' }] } }, null, 2)}\n`,
    );
    const dual: Homes = { codexHome: dirs.codexHome, claudeHome: dirs.claudeHome, stateDirectory: join(dirs.codexHome, 'wework-plugins'), runtimeTarget: 'dual' };
    const ports = createNodePorts({ durability: 'none' });
    const at = '2025-01-01T00:00:00.000Z';
    const retired = { name: 'retired-skills', marketplace: 'wegent' };
    for (const plugin of [PLUGIN, retired]) {
      const source = directoryPackageSource(await skillPackage(dirs, plugin.name, '1.0.0'));
      expect(await commitChange(ports, dual, { _tag: 'Install', plugin, version: '1.0.0', source, at })()).toMatchObject({ right: { outcome: 'Committed' } });
    }
    // `retired-skills` was uninstalled by the dual executor: registrations gone, its Claude cache retained (a tombstone).
    expect(await commitChange(ports, dual, { _tag: 'Remove', plugin: retired, at })()).toMatchObject({ right: { outcome: 'Committed' } });
    const claudeBefore = listTree(dirs.claudeHome);
    const ourCache = cacheDirectoryOf(PLUGIN, '1.0.0');
    const retiredCache = cacheDirectoryOf(retired, '1.0.0');
    expect(json(join(dirs.claudeHome, 'settings.json'))).toEqual({ theme: 'dark', enabledPlugins: { 'native@claude-market': true, 'team-skills@wegent': true } });
    expect(existsSync(join(dirs.claudeHome, retiredCache))).toBe(true);

    const { executor } = await startOn(dirs);
    const status = await executor.handle(desiredState(5, []));
    expect(status).toMatchObject({
      ok: true,
      actions: [
        { plugin: 'retired-skills@wegent', action: 'remove', reason: 'StaleClaudeState', result: 'Committed' },
        { plugin: 'team-skills@wegent', action: 'remove', reason: 'NotDesired', result: 'Committed' },
      ],
    });

    // Gone: the registration, the enablement and both recorded caches.
    expect(json(join(dirs.claudeHome, 'settings.json'))).toEqual({ theme: 'dark', enabledPlugins: { 'native@claude-market': true } });
    expect(json(join(dirs.claudeHome, 'plugins/installed_plugins.json'))).toEqual({ version: 2, plugins: { 'native@claude-market': [{ scope: 'user', installPath: native, version: '1.0.0' }] } });
    // Nothing else on the Claude side changed: the listing differs by exactly those entries.
    const changedFiles = ['settings.json', 'plugins/installed_plugins.json'];
    const removedTrees = [ourCache, retiredCache];
    const untouched = (lines: ReadonlyArray<string>): string[] =>
      lines.filter((line) => !changedFiles.some((f) => line.startsWith(`${f} `)) && !removedTrees.some((t) => line.startsWith(`${t} `) || line.startsWith(`${t}/`)));
    expect(untouched(listTree(dirs.claudeHome))).toEqual(untouched(claudeBefore));
    expect(listTree(dirs.claudeHome).filter((line) => removedTrees.some((t) => line.startsWith(t)))).toEqual([]);
    // A second reconcile has nothing left to clean.
    expect(await executor.handle(desiredState(6, []))).toMatchObject({ ok: true, actions: [], runtime: { _tag: 'NothingToApply' } });
  });

  it('answers bad messages with error status lines and keeps working', async () => {
    const { dirs } = await device(0);
    const { executor, statuses } = await startOn(dirs);
    const pid = executor.runtime.current()?.pid;
    const bad = ['not json at all', '[1,2,3]', '{"type":"desiredState"}', desiredState(1, [{ ...PLUGIN, version: '../../x', path: '/nowhere' }]), '{"type":"desiredState","revision":1,"plugins":[{"name":"a","marketplace":"b","version":"1","package":{"path":"relative"}}]}'];
    for (const line of bad) expect(await executor.handle(line)).toMatchObject({ type: 'status', outcome: 'Rejected', ok: false });
    expect(statuses.map((s) => (s as { error: { _tag: string } }).error._tag)).toEqual(['InvalidJson', 'InvalidMessage', 'InvalidMessage', 'InvalidMessage', 'InvalidMessage']);
    // A package that is not there fails its install (a typed error), the rest of the device is untouched.
    expect(await executor.handle(desiredState(2, [{ ...PLUGIN, version: '1.0.0', path: join(dirs.downloads, 'missing') }]))).toMatchObject({
      ok: false,
      actions: [{ plugin: 'team-skills@wegent', result: 'Failed', error: { _tag: 'ExtractionFailed', detail: 'ENOENT' } }],
      runtime: { _tag: 'NothingToApply' },
    });
    // An older revision is ignored; a good message still works.
    expect(await executor.handle(desiredState(1, []))).toMatchObject({ outcome: 'Ignored', revision: 1, appliedRevision: 2 });
    const path = await skillPackage(dirs, PLUGIN.name, '1.0.0');
    expect(await executor.handle(desiredState(3, [{ ...PLUGIN, version: '1.0.0', path }]))).toMatchObject({ ok: true, actions: [{ result: 'Committed' }] });
    expect(executor.runtime.current()?.pid).toBe(pid);
  });

  it('a failed removal is retried on the plugin-inventory backoff, by the injected timer', async () => {
    const { dirs } = await device(0);
    let failing = false;
    const fs = instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), async () => !failing);
    const { executor, statuses, time } = await startOn(dirs, { ports: { fs, host: createNodeHost() } });
    const path = await skillPackage(dirs, PLUGIN.name, '1.0.0');
    expect(await executor.handle(desiredState(1, [{ ...PLUGIN, version: '1.0.0', path }]))).toMatchObject({ ok: true });

    failing = true;
    const start = time.clock.now();
    expect(await executor.handle(desiredState(2, []))).toMatchObject({
      ok: false,
      actions: [{ plugin: 'team-skills@wegent', action: 'remove', result: 'Failed', nextAttemptAt: start + retryDelay(1) }],
      runtime: { _tag: 'NothingToApply' },
    });
    expect(time.armedAt()).toBe(start + retryDelay(1));
    // A message before it is due does not attempt the removal.
    time.advance(retryDelay(1) - 1);
    expect(await executor.handle(desiredState(3, []))).toMatchObject({ actions: [{ result: 'Deferred', nextAttemptAt: start + retryDelay(1) }] });
    // Due: the retry fails again and backs off further.
    time.advance(1);
    time.fire();
    await executor.handle(desiredState(3, [])); // queued after the retry: waits for it
    expect(statuses.at(-2)).toMatchObject({ trigger: 'retry', actions: [{ result: 'Failed', nextAttemptAt: start + retryDelay(1) + retryDelay(2) }] });
    expect(statuses.at(-1)).toMatchObject({ trigger: 'message', actions: [{ result: 'Deferred' }] });
    // The file system recovers; the next retry removes the plugin and applies it to the app-server.
    failing = false;
    time.advance(retryDelay(2));
    time.fire();
    await executor.handle(desiredState(3, []));
    expect(statuses.at(-2)).toMatchObject({ trigger: 'retry', ok: true, actions: [{ result: 'Committed' }], runtime: { _tag: 'Reloaded' } });
    expect(time.armedAt()).toBeNull();
    // An uninstall retains the Codex cache (owned, tombstoned) and drops the enablement.
    expect(existsSync(join(dirs.codexHome, cacheDirectoryOf(PLUGIN, '1.0.0')))).toBe(true);
    expect(readFileSync(join(dirs.codexHome, 'config.toml'), 'utf8')).not.toContain('team-skills@wegent');
  });
});
