import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeHostParams, PluginsInstall, SkillsSetEnabled, TrialResult } from '../src/index.js';

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
