import { describe, expect, it } from 'vitest';
import * as proxy from '../../src/proxy/index.js';

describe('proxy public API', () => {
  it('pins the exported names', () => {
    expect(Object.keys(proxy).sort()).toEqual(
      [
        'Direction',
        'EXIT_COMMAND_NOT_FOUND',
        'EXIT_LOG_UNAVAILABLE',
        'MessageEntry',
        'PROXY_USAGE',
        'ProxyLogEntry',
        'UnparsedEntry',
        'classifyMessage',
        'decodeProxyLog',
        'formatLogEntry',
        'formatProxyArguments',
        'logEntry',
        'parseProxyArguments',
        'proxiedCommand',
        'proxyMainPath',
        'runProxy',
      ].sort(),
    );
  });

  it('builds the proxied command line around any MCP server command', () => {
    expect(proxy.proxiedCommand({ command: 'uvx', args: ['my-server', '--flag'], logFile: 'out.jsonl' })).toEqual({
      command: process.execPath,
      args: [proxy.proxyMainPath(), '--log', 'out.jsonl', '--', 'uvx', 'my-server', '--flag'],
    });
    expect(proxy.proxyMainPath()).toMatch(/dist[\\/]proxy[\\/]main\.js$/);
  });
});
