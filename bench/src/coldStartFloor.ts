/**
 * The floor of an executor's cold start: the least any executor that keeps the spec's start-up rules
 * does before its first host answer, as a script of Node built-ins only. It takes the home's lock
 * (one executor per home), reads the Codex home's config.toml (what normalizing it needs at least),
 * spawns Codex, writes `initialize` at once, and answers the host's first request with Codex's
 * `initialize` result. No module of the project is loaded, nothing is decoded beyond `JSON.parse`,
 * and the lock is not made durable: every executor costs more than this.
 *
 * `node coldStartFloor.js <executor home> <codex command> [args...]`; the host's request comes on
 * stdin, the answer goes to stdout. The bench compares it with the npm wrapper's start.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const [executorHome = '', command = '', ...args] = process.argv.slice(2);
const codexHome = join(executorHome, 'codex');
const lockPath = join(executorHome, 'floor.lock');

const lock = openSync(lockPath, 'wx');
writeSync(lock, String(process.pid));
closeSync(lock);
process.once('exit', () => rmSync(lockPath, { force: true }));
readFileSync(join(codexHome, 'config.toml'), 'utf8');

const codex = spawn(command, args, { env: { ...process.env, CODEX_HOME: codexHome }, stdio: ['pipe', 'pipe', 'ignore'] });
codex.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { clientInfo: { name: 'floor', title: null, version: '0' }, capabilities: { experimentalApi: true } } })}\n`);

/** Resolves with the first line of a stream. */
const firstLine = (stream: NodeJS.ReadableStream): Promise<string> =>
  new Promise((resolve) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      stream.off('data', onData);
      resolve(buffered.slice(0, newline));
    };
    stream.on('data', onData);
  });

const [initialized, request] = await Promise.all([firstLine(codex.stdout), firstLine(process.stdin)]);
const { result } = JSON.parse(initialized) as { result: unknown };
const { id } = JSON.parse(request) as { id: unknown };
process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

process.stdin.once('end', () => {
  codex.once('exit', () => process.exit(0));
  codex.stdin.end();
  codex.kill('SIGTERM');
});
process.stdin.resume();
