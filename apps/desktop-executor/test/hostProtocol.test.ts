import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { parseServeArguments, parseServeInvocation } from '../src/host/ServeArguments.js';
import { bundledDirectories, bundledFaultFromEnv } from '../src/plugins/BundledLaunch.js';
import { launchToken, originAllowed, tokenMatches } from '../src/host/WebSocketTransport.js';

describe('serve arguments', () => {
  it('reads the transport, homes and plugins', () => {
    expect(parseServeArguments(['--ws', '--port', '0', '--executor-home', '/e', '--wait-for-plugin', 'forms'])).toEqual(
      E.right({
        transport: { _tag: 'WebSocket', port: 0, allowedOrigins: [], ui: false },
        executorHome: '/e',
        workspace: null,
        waitForPlugins: ['forms'],
        bundledPlugins: [],
        firstStart: { config: null, remoteApps: null },
        codexPath: null,
        requireSupportedCodex: false,
        logFormat: 'text',
      }),
    );
    expect(parseServeArguments(['--stdio'])).toMatchObject({ right: { transport: { _tag: 'Stdio' } } });
  });
  it('reads the bundled plugin packages, repeatable, and adds those of WEWORK_BUNDLED_PLUGINS after them', () => {
    expect(parseServeArguments(['--stdio', '--bundled-plugin', '/app/space', '--bundled-plugin', '/app/builder'])).toMatchObject({ right: { bundledPlugins: ['/app/space', '/app/builder'] } });
    expect(E.isLeft(parseServeArguments(['--stdio', '--bundled-plugin']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--stdio', '--bundled-plugin', '']))).toBe(true);
    expect(bundledDirectories(['/app/space'], { WEWORK_BUNDLED_PLUGINS: '/app/a::/app/b:' }, ':')).toEqual(['/app/space', '/app/a', '/app/b']);
    expect(bundledDirectories([], { WEWORK_BUNDLED_PLUGINS: 'C:\\a;D:\\b' }, ';')).toEqual(['C:\\a', 'D:\\b']);
    expect(bundledDirectories([], {})).toEqual([]);
  });
  it('refuses an unknown bundled upgrade fault hook without echoing it', () => {
    expect(bundledFaultFromEnv({})).toEqual(E.right(null));
    expect(E.isRight(bundledFaultFromEnv({ WEWORK_TEST_BUNDLED_FAULT: 'fail-once' }))).toBe(true);
    expect(E.isRight(bundledFaultFromEnv({ WEWORK_TEST_BUNDLED_FAULT: 'pause:/tmp/marker' }))).toBe(true);
    for (const bad of ['pause:relative', 'secret-value']) expect(bundledFaultFromEnv({ WEWORK_TEST_BUNDLED_FAULT: bad })).toEqual(E.left(expect.not.stringContaining(bad)));
    expect(E.isLeft(bundledFaultFromEnv({ WEWORK_TEST_BUNDLED_FAULT: 'fail' }))).toBe(true);
  });
  it('reads the first-start answer the host asked for', () => {
    expect(parseServeArguments(['--stdio', '--migrate-config', 'native', '--remote-apps', 'off'])).toMatchObject({ right: { firstStart: { config: 'native', remoteApps: false } } });
    expect(E.isLeft(parseServeArguments(['--stdio', '--migrate-config', 'all']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--stdio', '--remote-apps']))).toBe(true);
  });
  it('reads the origins allowed to open a WebSocket, repeatable, with --ws only', () => {
    expect(parseServeArguments(['--ws', '--allow-origin', 'http://localhost:5173', '--allow-origin', 'null', '--allow-origin', 'https://app.example.com'])).toMatchObject({
      right: { transport: { _tag: 'WebSocket', port: 0, allowedOrigins: ['http://localhost:5173', 'null', 'https://app.example.com'] } },
    });
    expect(parseServeArguments(['--allow-origin', 'http://localhost:5173', '--ws', '--port', '7'])).toMatchObject({ right: { transport: { port: 7, allowedOrigins: ['http://localhost:5173'] } } });
    for (const bad of ['', 'localhost', 'http://localhost:5173/', 'http://localhost/app', 'HTTP://LOCALHOST', 'http://localhost:80', '*']) {
      expect(parseServeArguments(['--ws', '--allow-origin', bad])).toMatchObject({ left: expect.stringContaining('--allow-origin needs an origin') });
    }
    expect(E.isLeft(parseServeArguments(['--ws', '--allow-origin']))).toBe(true);
    expect(parseServeArguments(['--stdio', '--allow-origin', 'http://localhost:5173'])).toMatchObject({ left: expect.stringContaining('--ws only') });
  });
  it('takes --opt=value as well as --opt value, repeatable options, and the Codex and log options', () => {
    expect(parseServeArguments(['--ws', '--port=80', '--wait-for-plugin=forms', '--wait-for-plugin', 'notes', '--executor-home=/e'])).toMatchObject({
      right: { transport: { port: 80 }, waitForPlugins: ['forms', 'notes'], executorHome: '/e' },
    });
    expect(parseServeArguments(['--stdio', '--codex=/opt/codex', '--require-supported-codex', '--log-format=json'])).toMatchObject({
      right: { codexPath: '/opt/codex', requireSupportedCodex: true, logFormat: 'json' },
    });
    expect(parseServeArguments(['--stdio', '--log-format=yaml'])).toMatchObject({ left: expect.stringContaining('--log-format needs text or json') });
    expect(parseServeArguments(['--stdio', '--codex='])).toMatchObject({ left: expect.stringContaining('--codex needs a value') });
  });
  it('asks for the usage or the version without serving', () => {
    for (const argv of [['--help'], ['-h'], ['--stdio', '--help']]) expect(parseServeInvocation(argv)).toEqual(E.right({ _tag: 'Help' }));
    for (const argv of [['--version'], ['-V']]) expect(parseServeInvocation(argv)).toEqual(E.right({ _tag: 'Version' }));
    expect(parseServeInvocation(['--stdio'])).toMatchObject({ right: { _tag: 'Serve', args: { transport: { _tag: 'Stdio' } } } });
  });
  it('reads --ui, which serves the web host on the WebSocket port, with --ws only', () => {
    expect(parseServeArguments(['--ws', '--ui'])).toMatchObject({ right: { transport: { _tag: 'WebSocket', ui: true } } });
    expect(parseServeArguments(['--ui', '--ws', '--port', '7'])).toMatchObject({ right: { transport: { port: 7, ui: true } } });
    expect(parseServeArguments(['--stdio', '--ui'])).toMatchObject({ left: expect.stringContaining('--ui applies to --ws only') });
  });
  it('refuses what it does not understand', () => {
    expect(E.isLeft(parseServeArguments([]))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--stdio', '--ws']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--ws', '--port', 'x']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--stdio', '--bogus']))).toBe(true);
    expect(parseServeArguments(['--stdio', '--bogus'])).toMatchObject({ left: expect.stringContaining("Unknown option '--bogus'") });
    expect(E.isLeft(parseServeArguments(['--stdio', 'extra']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--ws', '--port=-1']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--ws', '--port=']))).toBe(true);
  });
});

describe('origin check', () => {
  it('accepts an upgrade without Origin, and one whose origin is allowed, compared exactly', () => {
    expect(originAllowed(undefined, [])).toBe(true);
    expect(originAllowed('http://localhost:5173', [])).toBe(false);
    expect(originAllowed('http://localhost:5173', ['http://localhost:5173'])).toBe(true);
    expect(originAllowed('HTTP://LOCALHOST:5173', ['http://localhost:5173'])).toBe(true);
    expect(originAllowed('http://localhost:5174', ['http://localhost:5173'])).toBe(false);
    expect(originAllowed('http://localhost:5173.evil.example', ['http://localhost:5173'])).toBe(false);
    expect(originAllowed('null', [])).toBe(false);
    expect(originAllowed('null', ['null'])).toBe(true);
  });
});

describe('launch token', () => {
  it('is 64 hex digits, different each launch, and matched exactly', () => {
    const token = launchToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(launchToken()).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(undefined, token)).toBe(false);
    expect(tokenMatches(token.slice(1), token)).toBe(false);
    expect(tokenMatches(`${token}0`, token)).toBe(false);
  });
});
