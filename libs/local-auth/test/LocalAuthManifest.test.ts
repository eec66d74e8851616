import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeLocalAuthConnectors } from '../src/index.js';
import { isArchiveEntryPath, policyTriggers } from '../src/LocalAuthManifest.js';
import { parseCommand } from '../src/Command.js';
import { manifestArbitrary } from '../src/testing.js';

const qr = {
  type: 'local_qr',
  health: ['bin/bridge.mjs', 'health'],
  start: ['bin/bridge.mjs', 'start'],
  poll: ['bin/bridge.mjs', 'poll'],
};

const problemsOf = (localAuth: unknown, slug = 'dingtalk') => {
  const decoded = decodeLocalAuthConnectors({ connectors: [{ slug, localAuth }] });
  if (E.isRight(decoded)) throw new Error('expected a refusal');
  return decoded.left;
};

describe('parseCommand', () => {
  it('accepts argv arrays and whitespace-separated strings, normalizing ./', () => {
    expect(parseCommand(['./bin/bridge.mjs', 'poll', '--format=json'])).toEqual(E.right({ program: 'bin/bridge.mjs', args: ['poll', '--format=json'] }));
    expect(parseCommand(' bin/bridge.mjs   poll ')).toEqual(E.right({ program: 'bin/bridge.mjs', args: ['poll'] }));
  });

  it.each([
    [['/usr/bin/glab', 'auth'], 'absolute_path', 0],
    [['C:/tools/glab.exe'], 'absolute_path', 0],
    [['..\\x'], 'shell_metacharacter', 0],
    [['../other-plugin/bin/x'], 'parent_escape', 0],
    [['bin/../../x'], 'parent_escape', 0],
    [['bin/x', '$(curl evil)'], 'shell_metacharacter', 1],
    [['bin/x', 'a;b'], 'shell_metacharacter', 1],
    [['bin/x', 'a\nb'], 'control_character', 1],
    [['bin/x', 3], 'not_a_command', 1],
    [[], 'empty', undefined],
    ['bin/x && rm -rf ~', 'shell_metacharacter', undefined],
    ['bin/x | tee', 'shell_metacharacter', undefined],
    ['bin/x `id`', 'shell_metacharacter', undefined],
    ["bin/x 'quoted arg'", 'shell_metacharacter', undefined],
    [{ run: 'bin/x' }, 'not_a_command', undefined],
  ])('refuses %j (%s)', (input, problem, index) => {
    expect(parseCommand(input)).toEqual(E.left({ problem, index }));
  });

  it('never throws and accepts only relative programs without dot-dot or metacharacters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = parseCommand(value);
        if (E.isRight(parsed)) {
          expect(parsed.right.program.startsWith('/')).toBe(false);
          expect(parsed.right.program.split('/')).not.toContain('..');
          for (const part of [parsed.right.program, ...parsed.right.args]) expect(part).not.toMatch(/[;&|`$<>\n\r\0'"\\]/);
        }
      }),
    );
  });
});

describe('decodeLocalAuthConnectors', () => {
  it('decodes a QR connector with its defaults', () => {
    const decoded = decodeLocalAuthConnectors({ connectors: [{ slug: 'mail' }, { slug: 'dingtalk', localAuth: qr }] });
    expect(decoded).toEqual(
      E.right([
        {
          slug: 'dingtalk',
          localAuth: {
            type: 'local_qr',
            authPolicy: 'on_first_use',
            logoutOnUninstall: true,
            health: { program: 'bin/bridge.mjs', args: ['health'] },
            start: { program: 'bin/bridge.mjs', args: ['start'] },
            poll: { program: 'bin/bridge.mjs', args: ['poll'] },
            logout: undefined,
            tool: undefined,
            loginTimeoutMs: 300_000,
          },
        },
      ]),
    );
  });

  it('defaults logoutOnUninstall off for browser OAuth and keeps explicit values', () => {
    const decoded = decodeLocalAuthConnectors({
      connectors: [
        { slug: 'glab', localAuth: { type: 'browser_oauth', health: 'bin/b.mjs health', start: 'bin/b.mjs login', authPolicy: 'on_install', loginTimeoutSeconds: 120 } },
        { slug: 'dws', localAuth: { ...qr, logoutOnUninstall: false, logout: ['bin/bridge.mjs', 'logout'] } },
      ],
    });
    if (E.isLeft(decoded)) throw new Error(decoded.left.message);
    expect(decoded.right.map((c) => [c.slug, c.localAuth.type, c.localAuth.logoutOnUninstall, c.localAuth.authPolicy, c.localAuth.loginTimeoutMs])).toEqual([
      ['glab', 'browser_oauth', false, 'on_install', 120_000],
      ['dws', 'local_qr', false, 'on_first_use', 300_000],
    ]);
  });

  it('decodes bundled and managed tool sources', () => {
    const sha256 = 'a'.repeat(64);
    const decoded = decodeLocalAuthConnectors({
      connectors: [
        { slug: 'dws', localAuth: { ...qr, tool: { source: 'bundled', sidecar: 'dws' } } },
        {
          slug: 'glab',
          localAuth: {
            type: 'browser_oauth', health: 'bin/b.mjs health', start: 'bin/b.mjs start',
            tool: { source: 'managed', name: 'glab', version: '1.46.0', artifacts: [{ os: 'linux', arch: 'x64', url: 'https://gitlab.com/gitlab-org/cli/-/releases/v1.46.0/downloads/glab.tar.gz', sha256, format: 'tar.gz', path: 'bin/glab' }] },
          },
        },
      ],
    });
    if (E.isLeft(decoded)) throw new Error(decoded.left.message);
    expect(decoded.right.map((c) => c.localAuth.tool?.source)).toEqual(['bundled', 'managed']);
  });

  it('names the connector and the field of every problem', () => {
    const error = problemsOf({ ...qr, start: ['/bin/sh', '-c', 'x'], poll: ['bin/../../etc/passwd'], health: 'bin/x; curl evil' });
    expect(error._tag).toBe('InvalidLocalAuth');
    expect(error.problems).toEqual([
      { connector: 'dingtalk', field: 'localAuth.health', message: 'contains a shell metacharacter; commands run without a shell' },
      { connector: 'dingtalk', field: 'localAuth.start', message: 'must be relative to the plugin root, not an absolute path (program)' },
      { connector: 'dingtalk', field: 'localAuth.poll', message: 'must stay inside the plugin root (".." is not allowed) (program)' },
    ]);
    expect(error.message).toContain('connector "dingtalk", field localAuth.start: must be relative to the plugin root');
  });

  it('requires poll for QR, health and start for both, and a known type', () => {
    expect(problemsOf({ type: 'local_qr', health: 'bin/a', start: 'bin/a' }).problems).toEqual([{ connector: 'dingtalk', field: 'localAuth.poll', message: 'is required' }]);
    expect(problemsOf({ type: 'browser_oauth', start: 'bin/a' }).problems).toEqual([{ connector: 'dingtalk', field: 'localAuth.health', message: 'is required' }]);
    expect(problemsOf({ type: 'password' }).problems).toEqual([{ connector: 'dingtalk', field: 'localAuth.type', message: 'must be "local_qr" or "browser_oauth"' }]);
  });

  it('decodes zip artifacts and refuses archive paths that leave the archive', () => {
    const artifact = (extra: object) => ({ ...qr, tool: { source: 'managed', name: 'glab', version: '1.46.0', artifacts: [{ os: 'windows', arch: 'x64', url: 'https://gitlab.com/x', sha256: 'a'.repeat(64), ...extra }] } });
    expect(E.isRight(decodeLocalAuthConnectors({ connectors: [{ slug: 'glab', localAuth: artifact({ format: 'zip', path: 'bin/glab.exe' }) }] }))).toBe(true);
    expect(problemsOf(artifact({ format: 'rar', path: 'glab.exe' })).problems).toEqual([
      { connector: 'dingtalk', field: 'localAuth.tool.artifacts[0].format', message: 'must be "binary" | "tar.gz" | "zip"' },
    ]);
    for (const path of ['../glab.exe', '/bin/glab', 'C:/glab.exe', 'C:glab.exe', 'bin\\glab.exe', 'bin//glab', './bin/glab', 'bin/', '']) {
      expect(problemsOf(artifact({ format: 'zip', path })).problems.map((p) => p.field)).toEqual(['localAuth.tool.artifacts[0].path']);
    }
  });

  it('an archive path is accepted exactly when every segment is a plain name', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._ -]{1,12}$/).filter((name) => name !== '.' && name !== '..');
    fc.assert(fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => isArchiveEntryPath(segments.join('/'))));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), fc.constantFrom('..', '.', '', 'C:', 'a\\b', 'nul\0'), fc.array(segment, { maxLength: 3 }), (before, bad, after) => !isArchiveEntryPath([...before, bad, ...after].join('/'))),
    );
    expect(isArchiveEntryPath('/bin/glab')).toBe(false);
  });

  it('names nested fields of tools and artifacts', () => {
    const error = problemsOf({ ...qr, authPolicy: 'always', tool: { source: 'managed', name: 'glab', version: '1', artifacts: [{ os: 'linux', arch: 'x64', url: 'u', sha256: 'nope' }] } });
    expect(error.problems.map((p) => p.field)).toEqual(expect.arrayContaining(['localAuth.authPolicy', 'localAuth.tool.artifacts[0].sha256']));
  });

  it('refuses connectors without a usable slug and duplicate slugs', () => {
    const decoded = decodeLocalAuthConnectors({ connectors: [{ localAuth: qr }, { slug: 'a', localAuth: qr }, { slug: 'a', localAuth: qr }] });
    expect(E.isLeft(decoded) && decoded.left.problems.map((p) => [p.connector, p.field, p.message])).toEqual([
      ['connectors[0]', 'slug', 'is required with localAuth and must be a name of letters, digits, ".", "_" or "-"'],
      ['a', 'slug', 'is declared twice'],
    ]);
  });

  it('decodes every generated manifest and never throws on arbitrary JSON', () => {
    fc.assert(fc.property(manifestArbitrary, (manifest) => {
      const decoded = decodeLocalAuthConnectors(manifest);
      expect(E.isRight(decoded) && decoded.right.map((c) => c.slug)).toEqual(manifest.connectors.map((c) => c.slug));
    }));
    fc.assert(fc.property(fc.jsonValue(), (value) => void decodeLocalAuthConnectors(value)));
    fc.assert(fc.property(fc.jsonValue(), (value) => void decodeLocalAuthConnectors({ connectors: [{ slug: 'x', localAuth: value }] })));
  });
});

describe('policyTriggers', () => {
  it('checks at install only for on_install; manual only offers the login', () => {
    expect(policyTriggers('on_install')).toEqual({ checkAtInstall: true, onAuthRequired: 'open' });
    expect(policyTriggers('on_first_use')).toEqual({ checkAtInstall: false, onAuthRequired: 'open' });
    expect(policyTriggers('manual')).toEqual({ checkAtInstall: false, onAuthRequired: 'offer' });
  });
});
