import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as client from '../src/index.js';
import * as node from '../src/node/index.js';
import * as launch from '../src/node/launch.js';

describe('public API', () => {
  it('pins the runtime exports of the main entry', () => {
    expect(Object.keys(client).sort()).toEqual([
      'ClientError',
      'DEFAULT_CLIENT_INFO',
      'DEFAULT_RESTART_POLICY',
      'SUPPORTED_CODEX_VERSIONS',
      'checkCodexVersion',
      'createAppServerClient',
      'describeClientError',
      'describeClientErrorCategory',
      'describeCodexVersionCheck',
      'describeMcpStartupError',
      'isIdleActivity',
      'isTurnEnded',
      'onClosed',
      'runTurn',
      'trackActivity',
      'trackMcpStartup',
    ]);
  });

  it('pins the runtime exports of the ./node entry', () => {
    expect(Object.keys(node).sort()).toEqual(
      [
        'DEFAULT_STDERR_LIMIT_BYTES',
        'PS_ARGUMENTS',
        'StderrTail',
        'codexCommandAt',
        'currentProcessPlatform',
        'isRunning',
        'launchAppServer',
        'listProcesses',
        'nativeBinaryLocation',
        'nodeCommandRunner',
        'parseProcStat',
        'parsePsOutput',
        'procTable',
        'processPlatformFor',
        'psTable',
        'resolveCodexCommand',
        'spawnAppServer',
        'superviseAppServer',
        'taskkillArguments',
        'terminateProcessTree',
        'treeOf',
        'unixProcessPlatform',
        'windowsProcessPlatform',
      ].sort(),
    );
  });

  it('pins the runtime exports of "./node/launch": the launch alone, the same function as "./node"', () => {
    expect(Object.keys(launch)).toEqual(['launchAppServer']);
    expect(launch.launchAppServer).toBe(node.launchAppServer);
  });

  it('announces the package version in the default clientInfo', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(client.DEFAULT_CLIENT_INFO.version).toBe(manifest.version);
  });

  it('announces the package version in the built clientInfo too: the build writes it from package.json', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const built = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof client;
    expect(built.DEFAULT_CLIENT_INFO).toEqual({ ...client.DEFAULT_CLIENT_INFO, version: manifest.version });
  });

  it('re-exports none of the JSON-RPC framing, shapes, codes or gate: those are @wework/jsonrpc\'s', async () => {
    const jsonrpc = await import('@wework/jsonrpc');
    const nodeJsonrpc = await import('@wework/jsonrpc/node');
    const own = new Set([...Object.keys(client), ...Object.keys(node), ...Object.keys(launch)]);
    expect([...Object.keys(jsonrpc), ...Object.keys(nodeJsonrpc)].filter((name) => own.has(name))).toEqual([]);
  });
});
