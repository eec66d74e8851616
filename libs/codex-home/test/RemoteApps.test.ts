import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { readRemoteApps, remoteAppsEdit, setRemoteApps } from '../src/index.js';
import { configDocumentArbitrary } from '@wework/config-toml/testing';

const set = (text: string, enabled: boolean): string => {
  const result = setRemoteApps(text, enabled);
  if (E.isLeft(result)) throw new Error(result.left._tag);
  return result.right;
};

describe('the remote apps switch in config.toml', () => {
  it('is on by default, as in Codex', () => {
    expect(readRemoteApps('')).toEqual(E.right(true));
    expect(readRemoteApps('[features]\napps = false\n')).toEqual(E.right(false));
    expect(readRemoteApps('features = { apps = "yes" }\n')).toEqual(E.right(true));
  });

  it('adds a [features] table at the end, keeping everything else', () => {
    expect(set('', false)).toBe('[features]\napps = false\n');
    expect(set('model = "x"\n', false)).toBe('model = "x"\n\n[features]\napps = false\n');
    expect(set('model = "x"', true)).toBe('model = "x"\n\n[features]\napps = true\n');
  });

  it('edits an existing value in place, keeping its comment, or adds it under the header', () => {
    expect(set('# mine\n[features]\napps = true # remote\nplugins = false\n', false)).toBe('# mine\n[features]\napps = false # remote\nplugins = false\n');
    expect(set('[features]\nplugins = false\n\n[apps.gmail]\nenabled = true\n', false)).toBe('[features]\napps = false\nplugins = false\n\n[apps.gmail]\nenabled = true\n');
    expect(set('features.apps = true\n', false)).toBe('features.apps = false\n');
    expect(set('a = 1\r\n[features]\r\nx = 1\r\n', false)).toBe('a = 1\r\n[features]\r\napps = false\r\nx = 1\r\n');
  });

  it('returns the text itself when the value is already set', () => {
    const text = '[features]\napps = false\n';
    expect(setRemoteApps(text, false)).toEqual(E.right(text));
  });

  it('does not touch [apps] or a key hidden in a multi-line string', () => {
    const text = 'developer_instructions = """\n[features]\napps = true\n"""\n[apps.x]\nenabled = true\n';
    const edited = set(text, false);
    expect(parse(edited)).toEqual({ ...parse(text), features: { apps: false } });
  });

  it('refuses what it cannot edit safely and malformed TOML', () => {
    expect(setRemoteApps('features = { plugins = false }\n', false)).toEqual(E.left({ _tag: 'RemoteAppsNotEditable' }));
    expect(setRemoteApps('features = 3\n', false)).toEqual(E.left({ _tag: 'RemoteAppsNotEditable' }));
    expect(setRemoteApps('a = \n', false)).toMatchObject(E.left({ _tag: 'MalformedConfig', line: 1 }));
  });

  it('on any config: either sets exactly features.apps or refuses', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, fc.boolean(), ({ text }, enabled) => {
        const result = setRemoteApps(text, enabled);
        if (E.isLeft(result)) return result.left._tag === 'RemoteAppsNotEditable';
        expect(readRemoteApps(result.right)).toEqual(E.right(enabled));
        expect(setRemoteApps(result.right, enabled)).toEqual(E.right(result.right));
        return true;
      }),
    );
  });

  it('gives the config/batchWrite edit for a running app-server', () => {
    expect(remoteAppsEdit(false)).toEqual({ keyPath: 'features.apps', value: false, mergeStrategy: 'upsert' });
  });
});
