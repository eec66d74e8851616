/**
 * `wework-scripted-model`: serves a script file on loopback, so a host in any language can run the
 * executor without an OpenAI account.
 *
 *   wework-scripted-model --script FILE [--port N] [--host 127.0.0.1|::1] [--codex-home DIR]
 *                         [--model NAME] [--provider-id ID] [--record FILE] [--json]
 *   wework-scripted-model --help | --version
 *
 * Once it listens (and `--codex-home`'s config.toml is written) it prints one line on stdout,
 * `listening http://127.0.0.1:PORT/v1`, or with `--json` one object `{"url","port","configPath"}`.
 * It serves until SIGINT or SIGTERM, or until its stdin closes when stdin is a pipe, then exits 0.
 * Exit codes: 0 a clean stop (and `--help`, `--version`), 1 could not start (the port, the Codex
 * home), 2 bad usage or a bad script file. Messages go to stderr and never quote the script file.
 */
import { fstatSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { describeRejection, type RecordedRequest } from '../RecordedRequest.js';
import { formatCodexConfigError, writeScriptedModelConfig } from './CodexHomeConfig.js';
import { formatScriptFileError, readScriptFile } from './ScriptFile.js';
import { startScriptedModel, type ScriptedModel } from './ScriptedModelServer.js';

/** The usage text, printed by `--help` (stdout) and after a usage error (stderr). */
export const USAGE = `usage: wework-scripted-model --script FILE [--port N] [--host 127.0.0.1|::1] [--codex-home DIR]
                             [--model NAME] [--provider-id ID] [--record FILE] [--json]
       wework-scripted-model --help | --version

Serves a scripted model (the OpenAI Responses API, answered from FILE: a JSON array of responses,
see the README of @wework/scripted-model) on a loopback port and prints
"listening http://127.0.0.1:PORT/v1" (with --json: {"url","port","configPath"}) once ready.

  --script FILE       the script (required)
  --port N            the port; default 0, any free port
  --host ADDRESS      127.0.0.1 (default) or ::1; only loopback
  --codex-home DIR    write model_provider, model, [model_providers.<id>] and the fail-fast [features]
                      into DIR/config.toml, keeping everything else there (the executor's Codex home
                      is <executor home>/codex)
  --model NAME        the model slug written with --codex-home; default mock-model
  --provider-id ID    the provider id written with --codex-home; default scripted
  --record FILE       write the requests received (credentials redacted) to FILE after each one
  --json              print the ready line as one JSON object

It serves until SIGINT or SIGTERM, or until its stdin closes when stdin is a pipe.
Exit codes: 0 clean stop, 1 could not start, 2 bad usage or script file.`;

/** What the command line asks for. */
export interface ServeOptions {
  readonly script: string;
  readonly port: number;
  readonly host: '127.0.0.1' | '::1';
  readonly codexHome: string | null;
  readonly model: string | undefined;
  readonly providerId: string | undefined;
  readonly record: string | null;
  readonly json: boolean;
}

/** A parsed command line: serve, help, the version, or a usage error (its message). */
export type Invocation = { readonly _tag: 'Help' } | { readonly _tag: 'Version' } | { readonly _tag: 'Serve'; readonly options: ServeOptions };

const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const LOOPBACK: ReadonlyArray<string> = ['127.0.0.1', '::1'];

/** Reads the command line with `node:util` `parseArgs` (strict): an unknown option or a bad value is a usage error. */
export function parseInvocation(argv: ReadonlyArray<string>): E.Either<string, Invocation> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        script: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'codex-home': { type: 'string' },
        model: { type: 'string' },
        'provider-id': { type: 'string' },
        record: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    return E.left(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help === true) return E.right({ _tag: 'Help' });
  if (values.version === true) return E.right({ _tag: 'Version' });
  if (values.script === undefined || values.script === '') return E.left('--script FILE is required');
  const port = values.port === undefined ? 0 : /^\d{1,5}$/.test(values.port) ? Number(values.port) : -1;
  if (port < 0 || port > 65535) return E.left('--port takes a number from 0 to 65535');
  const host = values.host ?? '127.0.0.1';
  if (!LOOPBACK.includes(host)) return E.left('--host takes a loopback address only: 127.0.0.1 or ::1');
  if (values['codex-home'] === '') return E.left('--codex-home takes a directory');
  if (values.record === '') return E.left('--record takes a file');
  if (values.model !== undefined && (values.model === '' || values.model.length > 200 || [...values.model].some((char) => char.charCodeAt(0) < 0x20))) {
    return E.left('--model takes a model slug (1 to 200 characters, no control characters)');
  }
  if (values['provider-id'] !== undefined && !PROVIDER_ID.test(values['provider-id'])) return E.left('--provider-id takes 1 to 64 letters, digits, _ or -');
  const withCodexHome = values['codex-home'] !== undefined;
  if (!withCodexHome && (values.model !== undefined || values['provider-id'] !== undefined)) return E.left('--model and --provider-id are written with --codex-home only');
  return E.right({
    _tag: 'Serve',
    options: {
      script: values.script,
      port,
      host: host as ServeOptions['host'],
      codexHome: values['codex-home'] ?? null,
      model: values.model,
      providerId: values['provider-id'],
      record: values.record ?? null,
      json: values.json === true,
    },
  });
}

/** Where the command writes and what stops it; the process's own in {@link main}. */
export interface CommandIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Resolves when the command should stop (a signal, stdin closed). */
  readonly stopped: Promise<void>;
}

const version = (): string => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function describeOutcome(request: RecordedRequest): string {
  return request.outcome._tag === 'Answered' ? `answered from script[${request.outcome.responseIndex}]` : `refused: ${describeRejection(request.outcome.rejection)}`;
}

/** Logs each request on stderr and, with `--record`, writes them all to the file after each one. */
async function followRequests(model: ScriptedModel, io: CommandIo, record: string | null): Promise<void> {
  for (let count = 1; ; count += 1) {
    let requests: ReadonlyArray<RecordedRequest>;
    try {
      requests = await model.waitForRequests(count);
    } catch {
      return; // closed
    }
    const request = requests[count - 1];
    if (request !== undefined) io.err(`request ${count}: ${request.method} ${request.path.slice(0, 200)} ${describeOutcome(request)} (${model.remaining} left in the script)`);
    if (record !== null) {
      const temporary = `${record}.part`;
      try {
        await writeFile(temporary, JSON.stringify(requests.slice(0, count)) + '\n', { mode: 0o600 });
        await rename(temporary, record);
      } catch (error) {
        io.err(`cannot write the requests to --record (${(error as NodeJS.ErrnoException).code ?? 'EIO'})`);
      }
    }
  }
}

/** Runs the command; resolves with its exit code. */
export async function runCommand(argv: ReadonlyArray<string>, io: CommandIo): Promise<number> {
  const invocation = parseInvocation(argv);
  if (E.isLeft(invocation)) {
    io.err(`wework-scripted-model: ${invocation.left}\n${USAGE}`);
    return 2;
  }
  if (invocation.right._tag === 'Help') {
    io.out(USAGE);
    return 0;
  }
  if (invocation.right._tag === 'Version') {
    io.out(version());
    return 0;
  }
  const options = invocation.right.options;
  const script = await readScriptFile(options.script);
  if (E.isLeft(script)) {
    io.err(`wework-scripted-model: ${options.script}: ${formatScriptFileError(script.left)}`);
    return 2;
  }
  let model: ScriptedModel;
  try {
    model = await startScriptedModel({ script: script.right, host: options.host, port: options.port });
  } catch (error) {
    io.err(`wework-scripted-model: cannot listen on ${options.host} port ${options.port} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return 1;
  }
  let configPath: string | null = null;
  if (options.codexHome !== null) {
    const written = await writeScriptedModelConfig(options.codexHome, {
      baseUrl: model.url,
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.providerId === undefined ? {} : { providerId: options.providerId }),
    });
    if (E.isLeft(written)) {
      await model.close();
      io.err(`wework-scripted-model: ${formatCodexConfigError(written.left)}`);
      return 1;
    }
    configPath = written.right;
  }
  const following = followRequests(model, io, options.record);
  const port = Number(new URL(model.url).port);
  io.out(options.json ? JSON.stringify({ url: model.url, port, configPath }) : `listening ${model.url}`);
  await io.stopped;
  await model.close();
  await following;
  return 0;
}

/** Resolves on SIGINT or SIGTERM, or when stdin — if it is a pipe or a socket — closes. */
function processStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    let piped = false;
    try {
      const stat = fstatSync(0);
      piped = stat.isFIFO() || stat.isSocket();
    } catch {
      piped = false;
    }
    if (piped) {
      process.stdin.on('data', () => undefined);
      process.stdin.once('end', () => resolve());
      process.stdin.once('close', () => resolve());
      process.stdin.once('error', () => resolve());
    }
  });
}

/** The process entry: runs the command with the process's stdout, stderr, signals and stdin. */
export async function main(argv: ReadonlyArray<string>): Promise<void> {
  const io: CommandIo = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    stopped: processStopped(),
  };
  const code = await runCommand(argv, io).catch((error: unknown) => {
    process.stderr.write(`wework-scripted-model: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  });
  process.exitCode = code;
  process.stdin.destroy();
}
