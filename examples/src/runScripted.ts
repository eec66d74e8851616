/**
 * `node examples/dist/runScripted.js <command> [args...]`: runs a host example against the real executor
 * and app-server with the scripted model and the sample forms plugin, without an OpenAI account. It
 * prepares a throw-away run ({@link prepareScriptedRun}), runs the command with the run's environment
 * (`WEWORK_SERVE_JS`, `WEWORK_EXECUTOR_HOME`, `WEWORK_WORKSPACE`, `HOME`), and exits with its exit code once
 * the model is stopped and the directories are removed. Ctrl-C and SIGTERM are passed on to the command.
 * With `--no-model` it starts no model: for an example that starts `wework-scripted-model` itself (host.py).
 *
 * @example
 * ```sh
 * node examples/dist/runScripted.js --no-model python3 examples/python-host/host.py
 * node examples/dist/runScripted.js node examples/dist/typescript-host/host.js
 * ```
 */
import { spawn } from 'node:child_process';
import { prepareScriptedRun } from './scriptedRun.js';

const argv = process.argv.slice(2);
const withModel = argv[0] !== '--no-model';
const [command, ...args] = withModel ? argv : argv.slice(1);
if (command === undefined) {
  process.stderr.write('usage: runScripted.js [--no-model] <command> [args...]   (e.g. --no-model python3 examples/python-host/host.py)\n');
  process.exit(2);
}

const run = await prepareScriptedRun(withModel ? undefined : null);
const child = spawn(command, args, { env: { ...process.env, ...run.env }, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => {
  child.once('error', (error) => {
    process.stderr.write(`could not run ${command}: ${error.message}\n`);
    resolve(127);
  });
  child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
});
if (run.model !== null) process.stderr.write(`the model received ${run.model.requests.length} request(s)\n`);
await run.close();
process.exit(code);
