/**
 * Bundled plugin upgrades through the harness host client (the serve entry with `bundledPlugins`, the
 * real app-server, the scripted model): the first start installs the bundled package in the
 * background while the host's first request is answered, every `plugins/updateStatus` fits the
 * protocol's codec, and the typed `plugins/retryUpdate` checks again and upgrades a changed package.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostErrorCode, type HostNotificationParamsOf } from '@wework/host-protocol';
import { startHostBox, type HostBox } from './support/executorHostBox.js';

interface Box extends HostBox {
  readonly bundled: string;
}
let box: Box;

type UpdateStatus = HostNotificationParamsOf<'plugins/updateStatus'>;

async function writePackage(dir: string, version: string, note: string): Promise<void> {
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/tidy'), { recursive: true });
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'smart-app-builder', version, skills: './skills/' }));
  await writeFile(join(dir, 'skills/tidy/SKILL.md'), `---\nname: tidy\ndescription: Tidies the app (${note})\n---\n\nTidy it.\n`);
}

const bundledIn = (root: string): string => join(root, 'app/smart-app-builder');

beforeAll(async () => {
  const started = await startHostBox({
    prefix: 'harness-host-bundled-',
    bundledPlugins: ({ root }) => [bundledIn(root)],
    cards: async () => ({ action: 'cancel' }),
    prepare: ({ root }) => writePackage(bundledIn(root), '3.1.0', 'first'),
  });
  box = { ...started, bundled: bundledIn(started.root) };
}, 60_000);

afterAll(async () => {
  await box?.close();
});

describe('bundled plugins through the harness host', () => {
  it('installs in the background, announces each status, and upgrades again on a typed retry', async () => {
    expect(E.isRight(await box.host.request('executor/info', {}))).toBe(true);
    const done = (version: string) => (params: UpdateStatus) => params.status.kind === 'ok' && params.version === version;
    await box.host.nextNotification<UpdateStatus>('plugins/updateStatus', done('3.1.0'), { includePast: true });

    await writePackage(box.bundled, '3.1.1', 'second');
    expect(await box.host.request('plugins/retryUpdate', { pluginId: 'smart-app-builder@wework' })).toEqual(E.right({ status: { kind: 'updating' } }));
    await box.host.nextNotification<UpdateStatus>('plugins/updateStatus', done('3.1.1'), { includePast: true });
    const installed = await box.host.request('plugins/installed', {});
    expect(installed).toMatchObject({ right: { plugins: expect.arrayContaining([expect.objectContaining({ pluginId: 'smart-app-builder@wework', version: '3.1.1', status: { kind: 'ok' } })]) } });

    expect(await box.host.request('plugins/retryUpdate', { pluginId: 'wework-space@wework' })).toMatchObject({ left: { code: HostErrorCode.PluginNotFound } });
    expect(box.host.notifications('plugins/updateStatus').map((note) => (note.params as UpdateStatus).status.kind)).toEqual(['updating', 'ok', 'updating', 'ok']);
    expect(box.host.protocolViolations()).toEqual([]);
  }, 180_000);
});
