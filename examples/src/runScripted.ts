/**
 * `node examples/dist/runScripted.js <command> [args...]`: runs a host example against the real executor
 * and app-server with the scripted model and the sample forms plugin, without an OpenAI account. It
 * prepares a throw-away run ({@link prepareScriptedRun}), runs the command with the run's environment
 * (`WEWORK_SERVE_JS`, `WEWORK_EXECUTOR_HOME`, `WEWORK_WORKSPACE`, `HOME`), and exits with its exit code once
 * the model is stopped and the directories are removed. Ctrl-C and SIGTERM are passed on to the command.
 *
 * @example
 * ```sh
 * node examples/dist/runScripted.js python3 examples/python-host/host.py
 * ```
 */
import { spawn } from 'node:child_process';
import { prepareScriptedRun } from './scriptedRun.js';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write('usage: runScripted.js <command> [args...]   (e.g. python3 examples/python-host/host.py)\n');
  process.exit(2);
}

const run = await prepareScriptedRun();
const child = spawn(command, args, { env: { ...process.env, ...run.env }, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => {
  child.once('error', (error) => {
    process.stderr.write(`could not run ${command}: ${error.message}\n`);
    resolve(127);
  });
  child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
});
process.stderr.write(`the model received ${run.model.requests.length} request(s)\n`);
await run.close();
process.exit(code);
