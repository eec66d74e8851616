import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { HostMethod, HostParams, describeDecodeErrors } from '../src/host/HostProtocol.js';
import { parseServeArguments } from '../src/host/ServeArguments.js';
import { launchToken, tokenMatches } from '../src/host/WebSocketTransport.js';

describe('serve arguments', () => {
  it('reads the transport, homes and plugins', () => {
    expect(parseServeArguments(['--ws', '--port', '0', '--executor-home', '/e', '--wait-for-plugin', 'forms'])).toEqual(
      E.right({ transport: { _tag: 'WebSocket', port: 0 }, executorHome: '/e', workspace: null, waitForPlugins: ['forms'], firstStart: { config: null, remoteApps: null } }),
    );
    expect(parseServeArguments(['--stdio'])).toMatchObject({ right: { transport: { _tag: 'Stdio' } } });
  });
  it('reads the first-start answer the host asked for', () => {
    expect(parseServeArguments(['--stdio', '--migrate-config', 'native', '--remote-apps', 'off'])).toMatchObject({ right: { firstStart: { config: 'native', remoteApps: false } } });
    expect(E.isLeft(parseServeArguments(['--stdio', '--migrate-config', 'all']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--stdio', '--remote-apps']))).toBe(true);
  });
  it('refuses what it does not understand', () => {
    expect(E.isLeft(parseServeArguments([]))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--stdio', '--ws']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--ws', '--port', 'x']))).toBe(true);
    expect(E.isLeft(parseServeArguments(['--stdio', '--bogus']))).toBe(true);
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

describe('params decoding', () => {
  it('names the field and what was expected', () => {
    const decoded = HostParams[HostMethod.MessageSend].decode({ taskId: 7 });
    if (E.isRight(decoded)) throw new Error('decoded');
    expect(describeDecodeErrors(decoded.left)).toContain('taskId: expected string, got 7');
    expect(describeDecodeErrors(decoded.left)).toContain('markdown: expected string, got nothing');
  });
});
