import { describe, expect, it } from 'vitest';
import * as T from 'fp-ts/lib/Task.js';
import { applyMigration, codexHome, DEFAULT_MIGRATION_CHOICE, decodeHomeState, detectFirstStart, encodeHomeState, freshConfigText } from '../src/index.js';
import { apiKeyAuthJson } from '../src/testing.js';
import { MemoryFileSystem } from '@wework/ports/testing';
import { leftOf, rightOf, testLayout } from './support.js';

const layout = testLayout();
const nativeConfig = '# my codex\nmodel = "o3"\nmodel_provider = "azure"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';

const withNativeHome = (): MemoryFileSystem =>
  new MemoryFileSystem().addFile(layout.nativeConfigFile, nativeConfig, 0o644).addFile(layout.nativeAuthFile, apiKeyAuthJson('sk-native'), 0o600);

describe('detectFirstStart', () => {
  it('asks when the Wework home is uninitialised and a native home exists', async () => {
    expect(await rightOf(detectFirstStart(withNativeHome(), layout))).toEqual({ _tag: 'AskMigration', nativeHome: layout.nativeHome, nativeConfigExists: true });
  });

  it('does not ask without a native home', async () => {
    expect(await rightOf(detectFirstStart(new MemoryFileSystem(), layout))).toEqual({ _tag: 'Uninitialized' });
  });

  it('counts a config.toml or the state file as initialised; an auth link alone does not', async () => {
    const linked = withNativeHome().addSymlink(layout.nativeAuthFile, layout.authFile);
    expect((await rightOf(detectFirstStart(linked, layout)))._tag).toBe('AskMigration');
    const configured = withNativeHome().addFile(layout.configFile, 'personality = "friendly"\n');
    expect(await rightOf(detectFirstStart(configured, layout))).toEqual({ _tag: 'Initialized', state: null });
    const state = { version: 1, configSource: 'native', remoteApps: false } as const;
    const recorded = withNativeHome().addFile(layout.stateFile, encodeHomeState(state));
    expect(await rightOf(detectFirstStart(recorded, layout))).toEqual({ _tag: 'Initialized', state });
    const corrupt = withNativeHome().addFile(layout.stateFile, '{');
    expect(await rightOf(detectFirstStart(corrupt, layout))).toEqual({ _tag: 'Initialized', state: null });
  });
});

describe('applyMigration', () => {
  it('migrates the native config without its top-level model, and never writes the native home', async () => {
    const fs = withNativeHome();
    const before = fs.tree(layout.nativeHome);
    const result = await rightOf(applyMigration(fs, layout, { config: 'native', remoteApps: false }));
    expect(result.state).toEqual({ version: 1, configSource: 'native', remoteApps: false });
    expect(result.authLink).toEqual({ _tag: 'Linked', replacedStaleLink: false });
    expect(result.changes.map((c) => c._tag)).toContain('ModelRemoved');
    const config = fs.textAt(layout.configFile) ?? '';
    expect(config).not.toMatch(/^model = /m);
    expect(config).toContain('model_provider = "azure"');
    expect(config).toContain('[mcp_servers.docs]');
    expect(config).toContain('# my codex');
    expect(config).toMatch(/\[features\]\napps = false\n$/);
    expect(fs.entryAt(layout.configFile)).toMatchObject({ mode: 0o600 });
    expect(decodeHomeState((fs.entryAt(layout.stateFile) as { bytes: Uint8Array }).bytes)).toEqual(result.state);
    expect(fs.tree(layout.nativeHome)).toEqual(before);
    expect(await rightOf(detectFirstStart(fs, layout))).toEqual({ _tag: 'Initialized', state: result.state });
  });

  it('creates a new home that only reuses the auth link', async () => {
    const fs = withNativeHome();
    const result = await rightOf(applyMigration(fs, layout, { config: 'fresh', remoteApps: true }));
    expect(result.state.configSource).toBe('fresh');
    expect(fs.textAt(layout.configFile)).toBe(`${freshConfigText()}\n[features]\napps = true\n`);
    expect(fs.entryAt(layout.authFile)).toEqual({ kind: 'symlink', target: layout.nativeAuthFile });
  });

  it('falls back to a fresh config when there is no native config to import', async () => {
    const fs = new MemoryFileSystem().addDirectory(layout.nativeHome);
    const result = await rightOf(applyMigration(fs, layout, { config: 'native', remoteApps: true }));
    expect(result).toMatchObject({ nativeConfigMissing: true, state: { configSource: 'fresh' } });
  });

  it('writes nothing when the native config is malformed, so the question stays open', async () => {
    const fs = new MemoryFileSystem().addFile(layout.nativeConfigFile, 'model = \n');
    expect(await leftOf(applyMigration(fs, layout, { config: 'native', remoteApps: true }))).toMatchObject({ _tag: 'MalformedConfig', line: 1 });
    expect(fs.tree(layout.home)).toEqual([]);
    expect((await rightOf(detectFirstStart(fs, layout)))._tag).toBe('AskMigration');
  });

  it('refuses an initialised home', async () => {
    const fs = withNativeHome().addFile(layout.configFile, 'x = 1\n');
    expect(await leftOf(applyMigration(fs, layout, DEFAULT_MIGRATION_CHOICE))).toEqual({ _tag: 'AlreadyInitialized', path: layout.configFile });
    expect(fs.textAt(layout.configFile)).toBe('x = 1\n');
  });
});

describe('prepareForStart', () => {
  it('asks once on the first start, then never again', async () => {
    const fs = withNativeHome();
    const home = codexHome(fs, layout);
    const questions: unknown[] = [];
    const ask = (question: unknown) => {
      questions.push(question);
      return T.of({ config: 'native', remoteApps: true } as const);
    };
    const first = await rightOf(home.prepareForStart(ask));
    expect(first).toMatchObject({ home: 'Created', firstStart: { _tag: 'AskMigration' }, migration: { state: { configSource: 'native' } }, authLink: { _tag: 'AlreadyLinked' }, config: { _tag: 'Unchanged' } });
    const second = await rightOf(home.prepareForStart(ask));
    expect(second).toMatchObject({ home: 'Existing', firstStart: { _tag: 'Initialized' }, migration: null });
    expect(questions).toHaveLength(1);
  });

  it('applies the default choice without asking when there is no native home', async () => {
    const fs = new MemoryFileSystem();
    const result = await rightOf(codexHome(fs, layout).prepareForStart(() => () => Promise.reject(new Error('must not ask'))));
    expect(result.migration?.state).toEqual({ version: 1, configSource: 'fresh', remoteApps: true });
    expect(result.authLink).toEqual({ _tag: 'NoNativeAuth', removedStaleLink: false });
  });
});
