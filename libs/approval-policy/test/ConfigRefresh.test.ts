import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecs } from '@wework/codex-protocol';
import { applyConfigEdits } from '@wework/config-toml';
import { type JsonRecord } from '@wework/codex-protocol';
import { WEGENT_APPS_SERVER, WEWORK_BROWSER_SERVER, managedConfigFragment, refreshBuiltInServers, weworkFeatures } from '../src/index.js';
import type { BuiltInServer, ConfigRefresh } from '../src/ConfigRefresh.js';
import { codexConfigArbitrary, mcpServerEntryArbitrary } from '../src/testing.js';

const right = <A>(either: E.Either<unknown, A>): A => {
  if (E.isLeft(either)) throw new Error(`expected Right, got ${JSON.stringify(either.left)}`);
  return either.right;
};

const builtIns: ReadonlyArray<BuiltInServer> = [
  { name: WEGENT_APPS_SERVER, entry: { command: 'wegent-apps-mcp', args: ['--stdio'] } },
  { name: WEWORK_BROWSER_SERVER, entry: { command: 'wework-browser-mcp', env: { BROWSER: 'chromium' } } },
];

const builtInArbitrary: fc.Arbitrary<ReadonlyArray<BuiltInServer>> = fc.uniqueArray(
  fc.record({ name: fc.constantFrom(WEGENT_APPS_SERVER, WEWORK_BROWSER_SERVER, 'forms'), entry: mcpServerEntryArbitrary }),
  { selector: (server) => server.name, maxLength: 3 },
);

const servers = (config: JsonRecord): Record<string, JsonRecord> => (config['mcp_servers'] ?? {}) as Record<string, JsonRecord>;

describe('refreshBuiltInServers', () => {
  it('writes the built-in servers with approve and the feature flag into an empty config', () => {
    const refreshed = right(refreshBuiltInServers({}, builtIns));
    const expectedServers = {
      wegent_apps: { command: 'wegent-apps-mcp', args: ['--stdio'], default_tools_approval_mode: 'approve' },
      wework_browser: { command: 'wework-browser-mcp', env: { BROWSER: 'chromium' }, default_tools_approval_mode: 'approve' },
    };
    expect(refreshed).toEqual<ConfigRefresh>({
      config: { features: { tool_call_mcp_elicitation: false }, mcp_servers: expectedServers },
      edits: [
        { keyPath: 'features', value: { tool_call_mcp_elicitation: false }, mergeStrategy: 'replace' },
        { keyPath: 'mcp_servers', value: expectedServers, mergeStrategy: 'replace' },
      ],
      fragment: { features: weworkFeatures, mcp_servers: expectedServers },
    });
  });

  it('updates what Wework owns, keeps an explicit prompt and every unrelated key', () => {
    const config = {
      model: 'gpt-5.5',
      features: { plugins: false, tool_call_mcp_elicitation: true },
      mcp_servers: {
        wegent_apps: { command: 'old', default_tools_approval_mode: 'prompt', startup_timeout_sec: 20, tools: { search: { approval_mode: 'approve' } } },
        wework_browser: { command: 'wework-browser-mcp', env: { BROWSER: 'chromium' }, default_tools_approval_mode: 'auto' },
        mine: { command: 'mine', default_tools_approval_mode: 'auto' },
      },
    };
    const refreshed = right(refreshBuiltInServers(config, builtIns));
    expect(refreshed.config).toEqual({
      model: 'gpt-5.5',
      features: { plugins: false, tool_call_mcp_elicitation: false },
      mcp_servers: {
        wegent_apps: { command: 'wegent-apps-mcp', args: ['--stdio'], default_tools_approval_mode: 'prompt', startup_timeout_sec: 20, tools: { search: { approval_mode: 'approve' } } },
        wework_browser: { command: 'wework-browser-mcp', env: { BROWSER: 'chromium' }, default_tools_approval_mode: 'approve' },
        mine: { command: 'mine', default_tools_approval_mode: 'auto' },
      },
    });
    expect(refreshed.edits).toEqual([
      { keyPath: 'features.tool_call_mcp_elicitation', value: false, mergeStrategy: 'replace' },
      { keyPath: 'mcp_servers.wegent_apps.command', value: 'wegent-apps-mcp', mergeStrategy: 'replace' },
      { keyPath: 'mcp_servers.wegent_apps.args', value: ['--stdio'], mergeStrategy: 'replace' },
      { keyPath: 'mcp_servers.wework_browser.default_tools_approval_mode', value: 'approve', mergeStrategy: 'replace' },
    ]);
  });

  it('is idempotent: a second refresh changes nothing and has no edits', () => {
    fc.assert(
      fc.property(codexConfigArbitrary, builtInArbitrary, (config, servers) => {
        const once = refreshBuiltInServers(config, servers);
        if (E.isLeft(once)) return;
        const twice = right(refreshBuiltInServers(once.right.config, servers));
        expect(twice.config).toEqual(once.right.config);
        expect(twice.edits).toEqual([]);
        expect(twice.fragment).toEqual(once.right.fragment);
      }),
    );
  });

  it('keeps unrelated keys: other top-level keys, features, servers, and extra keys of built-in entries', () => {
    fc.assert(
      fc.property(codexConfigArbitrary, builtInArbitrary, (config, builtIn) => {
        const refreshed = right(refreshBuiltInServers(config, builtIn)).config;
        for (const [key, value] of Object.entries(config)) if (key !== 'features' && key !== 'mcp_servers') expect(refreshed[key]).toEqual(value);
        for (const [key, value] of Object.entries((config['features'] ?? {}) as JsonRecord)) if (key !== 'tool_call_mcp_elicitation') expect((refreshed['features'] as JsonRecord)[key]).toEqual(value);
        const names = new Set(builtIn.map((server) => server.name));
        for (const [name, entry] of Object.entries(servers(config))) {
          if (!names.has(name)) {
            expect(servers(refreshed)[name]).toEqual(entry);
            continue;
          }
          const written = builtIn.find((server) => server.name === name)?.entry ?? {};
          for (const [key, value] of Object.entries(entry)) {
            if (key in written || key === 'default_tools_approval_mode' || key === 'tools') continue;
            expect(servers(refreshed)[name]?.[key]).toEqual(value);
          }
        }
      }),
    );
  });

  it('never weakens an explicit prompt, whichever side declares it and whatever the refresh order', () => {
    fc.assert(
      fc.property(codexConfigArbitrary, mcpServerEntryArbitrary, fc.boolean(), (config, entry, promptInConfig) => {
        const existing = promptInConfig ? { ...entry, default_tools_approval_mode: 'prompt' } : entry;
        const desired = promptInConfig ? { command: 'wegent-apps-mcp' } : { ...entry, default_tools_approval_mode: 'prompt' };
        const withExisting = { ...config, mcp_servers: { ...servers(config), wegent_apps: existing } };
        const server = { name: WEGENT_APPS_SERVER, entry: desired };
        const other = { name: WEWORK_BROWSER_SERVER, entry: { command: 'b' } };
        for (const order of [[server, other], [other, server]]) {
          const refreshed = right(refreshBuiltInServers(withExisting, order));
          expect(servers(refreshed.config)['wegent_apps']?.['default_tools_approval_mode']).toBe('prompt');
          expect(refreshed.fragment['mcp_servers']).toHaveProperty(['wegent_apps', 'default_tools_approval_mode'], 'prompt');
          const again = right(refreshBuiltInServers(refreshed.config, [{ name: WEGENT_APPS_SERVER, entry: { command: 'wegent-apps-mcp' } }]));
          expect(servers(again.config)['wegent_apps']?.['default_tools_approval_mode']).toBe('prompt');
        }
      }),
    );
  });

  it('gives edits that are valid protocol ConfigEdits and turn the old config into the new one', () => {
    fc.assert(
      fc.property(codexConfigArbitrary, builtInArbitrary, (config, builtIn) => {
        const refreshed = right(refreshBuiltInServers(config, builtIn));
        for (const edit of refreshed.edits) expect(E.isRight(codecs.ConfigEdit.decode(edit))).toBe(true);
        expect(applyConfigEdits(config, refreshed.edits)).toEqual(E.right(refreshed.config));
      }),
    );
  });

  it('returns typed errors for configs it cannot refresh, and never throws on arbitrary JSON', () => {
    expect(refreshBuiltInServers([], builtIns)).toMatchObject(E.left({ _tag: 'NotATable', path: [] }));
    expect(refreshBuiltInServers({ features: true }, builtIns)).toMatchObject(E.left({ _tag: 'NotATable', path: ['features'] }));
    expect(refreshBuiltInServers({ mcp_servers: { wegent_apps: 'x' } }, builtIns)).toMatchObject(E.left({ _tag: 'NotATable', path: ['mcp_servers', 'wegent_apps'] }));
    expect(refreshBuiltInServers({ mcp_servers: { wegent_apps: { default_tools_approval_mode: 'always' } } }, builtIns)).toMatchObject(
      E.left({ _tag: 'InvalidApprovalMode', value: 'always', path: ['mcp_servers', 'wegent_apps', 'default_tools_approval_mode'] }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (config, entry) => {
        refreshBuiltInServers(config, [{ name: WEGENT_APPS_SERVER, entry: entry as JsonRecord }]);
        refreshBuiltInServers({ mcp_servers: { wegent_apps: entry } }, builtIns);
      }),
    );
  });
});

describe('managedConfigFragment', () => {
  it('is the TOML fragment for request/bot/plugin servers, explicit prompt first', () => {
    expect(
      managedConfigFragment([
        { forms: { command: 'node', args: ['forms.js'], default_tools_approval_mode: 'prompt' } },
        { forms: { env: { A: '1' }, default_tools_approval_mode: 'approve' }, search: { url: 'http://127.0.0.1:9/mcp' } },
      ]),
    ).toEqual(
      E.right({
        features: { tool_call_mcp_elicitation: false },
        mcp_servers: {
          forms: { command: 'node', args: ['forms.js'], default_tools_approval_mode: 'prompt', env: { A: '1' } },
          search: { url: 'http://127.0.0.1:9/mcp', default_tools_approval_mode: 'approve' },
        },
      }),
    );
  });
});
