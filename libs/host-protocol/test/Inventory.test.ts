import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeHostParams, PluginsUpdateStatusNotification, TrialResult } from '../src/index.js';
import { InventoryStatus } from '../src/Inventory.js';
import { PluginsInstall, PluginsRetryUpdate, SkillsSetEnabled } from '../src/Requests.js';

describe('plugins/install params', () => {
  it('decodes the cloud package form and the marketplace form', () => {
    expect(decodeHostParams(PluginsInstall, { marketplace: 'wegent', plugin: 'a', version: '1.0.0', packagePath: '/p' })).toEqual(
      E.right({ marketplace: 'wegent', plugin: 'a', version: '1.0.0', packagePath: '/p' }),
    );
    expect(E.isRight(decodeHostParams(PluginsInstall, { marketplace: 'alpha', plugin: 'a' }))).toBe(true);
  });

  it('refuses half a package form instead of reading it as a marketplace install', () => {
    expect(E.isLeft(decodeHostParams(PluginsInstall, { marketplace: 'wegent', plugin: 'a', packagePath: '/p' }))).toBe(true);
    expect(E.isLeft(decodeHostParams(PluginsInstall, { marketplace: 'wegent', plugin: 'a', version: '1.0.0' }))).toBe(true);
    expect(E.isLeft(decodeHostParams(PluginsInstall, { marketplace: 'wegent' }))).toBe(true);
  });
});

describe('skills/setEnabled params and plugins/trial result', () => {
  it('takes a path or a name', () => {
    expect(E.isRight(decodeHostParams(SkillsSetEnabled, { path: '/s/SKILL.md', enabled: false }))).toBe(true);
    expect(E.isRight(decodeHostParams(SkillsSetEnabled, { name: 'notes:jot', enabled: true }))).toBe(true);
    expect(E.isLeft(decodeHostParams(SkillsSetEnabled, { enabled: true }))).toBe(true);
  });

  it('has the three answers', () => {
    expect(TrialResult.is({ kind: 'ready', pluginId: 'a@b', draft: { markdown: '[@a](plugin://a@b)', defaultPrompt: null } })).toBe(true);
    expect(TrialResult.is({ kind: 'needsInstall', pluginId: 'a@b', reason: 'missing' })).toBe(true);
    expect(TrialResult.is({ kind: 'failed', message: 'x' })).toBe(true);
  });
});

describe('bundled plugin updates', () => {
  it('plugins/updateStatus carries the plugin, its status and optionally the version', () => {
    const params = PluginsUpdateStatusNotification.params;
    expect(params.is({ pluginId: 'wework-space@wework', status: { kind: 'updating' }, version: '2.0.0' })).toBe(true);
    expect(params.is({ pluginId: 'wework-space@wework', status: { kind: 'updateFailed', reason: 'TransactionRolledBack' } })).toBe(true);
    expect(params.is({ pluginId: 'wework-space@wework', status: { kind: 'installing' } })).toBe(false);
    expect(params.is({ pluginId: 'wework-space@wework', status: { kind: 'updateFailed' } })).toBe(false);
  });

  it('plugins/retryUpdate takes a plugin id and answers a status; the inventory knows updating', () => {
    expect(E.isRight(decodeHostParams(PluginsRetryUpdate, { pluginId: 'wework-space@wework' }))).toBe(true);
    expect(E.isLeft(decodeHostParams(PluginsRetryUpdate, {}))).toBe(true);
    expect(PluginsRetryUpdate.result.is({ status: { kind: 'ok' } })).toBe(true);
    expect(InventoryStatus.is({ kind: 'updating' })).toBe(true);
  });
});
