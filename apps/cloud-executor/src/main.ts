/**
 * `node dist/main.js`: the cloud executor. Desired-state messages arrive on stdin, one JSON object per
 * line; one JSON status line per processed message (and per retry of a failed removal) goes to stdout;
 * the log goes to stderr. One cloud executor per executor home: a second one exits at once with code 3
 * (`<executor home>/executor.lock`). Configuration comes from the environment (see `CloudConfig.ts`);
 * `WEGENT_PLUGIN_RUNTIME_TARGET` defaults to `codex`. When stdin ends, or on SIGTERM/SIGINT, the work in
 * progress finishes, the app-server is stopped and the process exits.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { logFormatOf } from '@wework/ports';
import { acquireProcessLock, createNodePorts } from '@wework/sync-transaction/node';
import { readCloudConfig } from './CloudConfig.js';
import { startCloudExecutor } from './CloudExecutor.js';
import { nodeTimer, systemClock } from '@wework/ports/node';
import { lineSink, lineSource, streamLog } from './node/NodePorts.js';

const USAGE = `usage: wework-cloud-executor [--codex=PATH] [--log-format=text|json] [--help] [--version]
  Desired-state messages on stdin (one JSON object per line), one status line per message on stdout, the log on stderr.
  Configuration from the environment: WEGENT_PLUGIN_RUNTIME_TARGET, WEWORK_EXECUTOR_HOME, WEGENT_CODEX_HOME,
  WEWORK_CLAUDE_HOME, WEWORK_WORKSPACE, WEWORK_CODEX_PATH (--codex overrides it).`;

let cli: { readonly codex?: string | undefined; readonly 'log-format'?: string | undefined; readonly help?: boolean | undefined; readonly version?: boolean | undefined };
try {
  cli = parseArgs({
    args: process.argv.slice(2),
    options: { codex: { type: 'string' }, 'log-format': { type: 'string' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'V' } },
    strict: true,
  }).values;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}
if (cli.help === true) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (cli.version === true) {
  process.stdout.write(`${(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version}\n`);
  process.exit(0);
}
const logFormat = cli['log-format'] === undefined ? 'text' : logFormatOf(cli['log-format']);
if (logFormat === null || cli.codex === '') {
  process.stderr.write(`${logFormat === null ? '--log-format needs text or json' : '--codex needs a path'}\n${USAGE}\n`);
  process.exit(2);
}
const log = streamLog(process.stderr, logFormat);
const env = cli.codex === undefined ? process.env : { ...process.env, WEWORK_CODEX_PATH: resolve(cli.codex) };
const config = readCloudConfig(env, { userHome: homedir(), cwd: process.cwd() });
if (E.isLeft(config)) {
  process.stderr.write(`${config.left.message}\n`);
  process.exit(2);
}
// One executor per home: a second one on the same executor home exits at once with code 3.
const locked = await acquireProcessLock(join(config.right.executorHome, 'executor.lock'));
if (E.isLeft(locked)) {
  const held = locked.left._tag === 'ProcessLockHeld';
  const owner = locked.left._tag === 'ProcessLockHeld' && locked.left.owner !== null ? ` (pid ${locked.left.owner.pid})` : '';
  process.stderr.write(held ? `The cloud executor did not start: another executor is already running on this executor home${owner}\n` : `The cloud executor did not start: the executor home could not be locked\n`);
  process.exit(held ? 3 : 1);
}
const executor = await startCloudExecutor({
  config: config.right,
  env: process.env,
  ports: createNodePorts(),
  clock: systemClock,
  timer: nodeTimer(systemClock),
  status: lineSink(process.stdout),
  log,
});
if (E.isLeft(executor)) {
  process.stderr.write(`The cloud executor did not start: ${executor.left._tag} (${executor.left.reason})\n`);
  process.exit(1);
}
const running = executor.right;
const stop = async (): Promise<void> => {
  await running.dispose();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
await running.run(lineSource(process.stdin));
await stop();
