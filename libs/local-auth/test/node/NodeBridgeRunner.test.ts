import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeInvocation } from '../../src/Ports.js';
import { parseCommand } from '../../src/Command.js';
import { createNodeBridgeRunner } from '../../src/node/index.js';
import { alive, captureLog, eventually, pluginRoot, recordedPids, tempDir } from '../support.js';

const CANARY = 'CANARY-d41d8cd98f00b204e980';
const dirs: Array<{ remove: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

const setup = (options: { maxStdoutBytes?: number } = {}) => {
  const dir = tempDir();
  dirs.push(dir);
  const pidsFile = join(dir.path, 'pids');
  const log = captureLog();
  const runner = createNodeBridgeRunner({ env: { ...process.env, PIDS_FILE: pidsFile, CANARY }, killGraceMs: 200, log: log.log, ...options });
  const run = (argv: unknown, extra: Partial<BridgeInvocation> = {}) => {
    const command = parseCommand(argv);
    if (E.isLeft(command)) throw new Error(command.left.problem);
    return runner.run({ connector: 'glab', command: 'health', pluginRoot, argv: command.right, timeoutMs: 5000, ...extra });
  };
  return { run, pidsFile, log, dir: dir.path };
};

describe('createNodeBridgeRunner', () => {
  it('runs a bridge without a shell and reads its one status object', async () => {
    const { run } = setup();
    expect(await run(['bin/bridge.mjs', 'ok'])).toEqual(E.right({ status: 'ok', account: 'Ada Lovelace' }));
    expect(await run(['bin/bridge.mjs', 'needs_login'])).toEqual(E.right({ status: 'needs_login', message: 'Not logged in' }));
  });

  it('passes arguments verbatim, runs in the plugin root and hands over the tool path', async () => {
    const { run } = setup();
    const result = await run(['bin/bridge.mjs', 'env', 'a=b', 'c d'], { toolPath: '/opt/tools/glab' });
    expect(result).toEqual(E.right({ status: 'ok', message: `/opt/tools/glab|a=b,c d|${pluginRoot}` }));
  });

  it('gives bridges only a minimal environment by default, never the executor\'s secrets', async () => {
    process.env.WEGENT_AUTH_TOKEN_TEST = 'secret';
    process.env.EXTRA_FOR_BRIDGE = 'x';
    try {
      const argv = parseCommand(['bin/bridge.mjs', 'has-env', 'PATH', 'HOME', 'WEGENT_AUTH_TOKEN_TEST', 'EXTRA_FOR_BRIDGE']);
      if (E.isLeft(argv)) throw new Error('argv');
      const invocation = { connector: 'glab', command: 'health', pluginRoot, argv: argv.right, timeoutMs: 5000 } as const;
      expect(await createNodeBridgeRunner().run(invocation)).toEqual(E.right({ status: 'ok', message: 'PATH=set,HOME=set,WEGENT_AUTH_TOKEN_TEST=unset,EXTRA_FOR_BRIDGE=unset' }));
      expect(await createNodeBridgeRunner({ passEnv: ['EXTRA_FOR_BRIDGE'] }).run(invocation)).toEqual(
        E.right({ status: 'ok', message: 'PATH=set,HOME=set,WEGENT_AUTH_TOKEN_TEST=unset,EXTRA_FOR_BRIDGE=set' }),
      );
    } finally {
      delete process.env.WEGENT_AUTH_TOKEN_TEST;
      delete process.env.EXTRA_FOR_BRIDGE;
    }
  });

  it.each([
    ['two', 'MultipleStatusObjects'],
    ['garbage', 'MalformedStatus'],
    ['empty', 'NoStatusObject'],
    ['crash', 'BridgeExited'],
  ])('a bridge that prints %s gives %s', async (mode, tag) => {
    const { run } = setup();
    const result = await run(['bin/bridge.mjs', mode]);
    expect(E.isLeft(result) && result.left._tag).toBe(tag);
    if (tag === 'BridgeExited') expect(result).toMatchObject(E.left({ exitCode: 3, signal: null, connector: 'glab', command: 'health' }));
  });

  it('refuses a status carrying tokens; the canary reaches neither the error nor the log', async () => {
    const { run, log } = setup();
    for (const mode of ['token', 'jwt']) {
      const result = await run(['bin/bridge.mjs', mode]);
      expect(E.isLeft(result) && result.left._tag).toBe('CredentialInStatus');
      expect(JSON.stringify(result)).not.toContain(CANARY);
      if (E.isLeft(result)) expect(result.left.message).not.toContain(CANARY);
    }
    expect(log.records.length).toBeGreaterThan(0);
    expect(JSON.stringify(log.records)).not.toContain(CANARY);
    expect(log.records.some((record) => record.event === 'bridge.refused' && record.detail === 'CredentialInStatus')).toBe(true);
  });

  it('terminates a hanging bridge and its grandchild at the timeout: no process of the tree remains', async () => {
    const { run, pidsFile } = setup();
    // The bridge hangs for ever, so only the timeout can end it; the bound leaves a loaded machine the time
    // to start the bridge and its grandchild (both must be recorded before the tree is ended).
    const result = await run(['bin/bridge.mjs', 'hang'], { timeoutMs: 3000 });
    expect(result).toMatchObject(E.left({ _tag: 'BridgeTimedOut', timeoutMs: 3000, connector: 'glab' }));
    const pids = recordedPids(pidsFile);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });

  it('escalates to SIGKILL for a bridge that ignores SIGTERM', async () => {
    const { run, pidsFile } = setup();
    const result = await run(['bin/bridge.mjs', 'hang-ignore-term'], { timeoutMs: 300 });
    expect(E.isLeft(result) && result.left._tag).toBe('BridgeTimedOut');
    for (const pid of recordedPids(pidsFile)) expect(alive(pid)).toBe(false);
  });

  it('cancel terminates the whole tree', async () => {
    const { run, pidsFile } = setup();
    const controller = new AbortController();
    const running = run(['bin/bridge.mjs', 'hang'], { signal: controller.signal, timeoutMs: 30_000 });
    await eventually(() => recordedPids(pidsFile).length === 2);
    controller.abort();
    expect(await running).toMatchObject(E.left({ _tag: 'BridgeCancelled' }));
    for (const pid of recordedPids(pidsFile)) expect(alive(pid)).toBe(false);
  });

  it('does not wait for, nor leave behind, a grandchild that holds stdout after the bridge exits', async () => {
    const { run, pidsFile } = setup();
    const started = Date.now();
    expect(await run(['bin/bridge.mjs', 'leave-grandchild'], { timeoutMs: 10_000 })).toEqual(E.right({ status: 'ok' }));
    expect(Date.now() - started).toBeLessThan(5000);
    for (const pid of recordedPids(pidsFile)) expect(alive(pid)).toBe(false);
  });

  it('bounds stdout', async () => {
    const { run } = setup({ maxStdoutBytes: 4096 });
    expect(await run(['bin/bridge.mjs', 'big'])).toMatchObject(E.left({ _tag: 'OutputTooLarge', limitBytes: 4096 }));
  });

  it('refuses programs that are missing or resolve outside the plugin root', async () => {
    const { run, dir } = setup();
    expect(await run(['bin/missing.mjs'])).toMatchObject(E.left({ _tag: 'BridgeSpawnFailed', code: 'ENOENT' }));
    const { symlinkSync } = await import('node:fs');
    const link = join(pluginRoot, 'bin', `escape-${process.pid}.mjs`);
    symlinkSync(join(dir, 'outside.mjs'), link);
    try {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dir, 'outside.mjs'), 'process.stdout.write("{\\"status\\":\\"ok\\"}")');
      expect(await run([`bin/escape-${process.pid}.mjs`])).toMatchObject(E.left({ _tag: 'BridgeSpawnFailed', code: 'OUTSIDE_PLUGIN_ROOT' }));
    } finally {
      const { unlinkSync } = await import('node:fs');
      unlinkSync(link);
    }
  });

  it('does not start an already cancelled command', async () => {
    const { run, pidsFile } = setup();
    const controller = new AbortController();
    controller.abort();
    expect(await run(['bin/bridge.mjs', 'ok'], { signal: controller.signal })).toMatchObject(E.left({ _tag: 'BridgeCancelled' }));
    expect(recordedPids(pidsFile)).toEqual([]);
  });
});
