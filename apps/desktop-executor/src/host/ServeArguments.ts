/**
 * The command line of `serve.js` (`wework-executor`): the transport (`--stdio` or `--ws [--port N]`), the
 * executor home (`--executor-home DIR`, else `WEWORK_EXECUTOR_HOME`, else `~/.wework/executor`), the default
 * workspace (`--workspace DIR`, else the current directory), the plugins to wait for before a first turn
 * (`--wait-for-plugin NAME`, repeatable), the desktop app's bundled plugin packages (`--bundled-plugin DIR`,
 * repeatable; `WEWORK_BUNDLED_PLUGINS` adds more), and the answer to the first-start question, which the host
 * asks the user before launching (`--migrate-config fresh|native`, `--remote-apps on|off`; used only when
 * the Wework Codex home is not initialised yet and a native `~/.codex` exists). With `--ws`, the origins
 * whose WebSocket upgrades are accepted (`--allow-origin ORIGIN`, repeatable: `scheme://host[:port]` as
 * a browser sends it, or `null`); an upgrade without an `Origin` header is always accepted; `--ui` (with
 * `--ws`) also serves the web host's page on the same port and allows its origin. `--codex PATH`
 * runs another Codex than the installed one (`WEWORK_CODEX_PATH` too); `--require-supported-codex` refuses
 * to start with a Codex outside the supported versions (otherwise a warning is logged). `--log-format
 * text|json` chooses how log lines are written (stderr). `--help` and `--version` print and exit 0, and so do
 * `--print-schema` (the host protocol's JSON Schema 2020-12 document) and `--print-openrpc` (its OpenRPC
 * document), which start nothing.
 *
 * Options are read by `node:util` `parseArgs`: `--opt value` and `--opt=value`, unknown options refused.
 * Every function here is pure.
 */
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { logFormatOf, type LogFormat } from '@wework/ports';

/** What `serve.js` was asked to do. */
export interface ServeArguments {
  readonly transport: { readonly _tag: 'Stdio' } | { readonly _tag: 'WebSocket'; readonly port: number; readonly allowedOrigins: ReadonlyArray<string>; readonly ui: boolean };
  readonly executorHome: string | null;
  readonly workspace: string | null;
  readonly waitForPlugins: ReadonlyArray<string>;
  /** The bundled plugin package directories, as given (each decoded when read). */
  readonly bundledPlugins: ReadonlyArray<string>;
  /** The first-start answer; `null` parts take the default (fresh config, remote apps on). */
  readonly firstStart: { readonly config: 'fresh' | 'native' | null; readonly remoteApps: boolean | null };
  /** `--codex`: a Codex binary or npm wrapper script to run instead of the installed one; `null`: not given. */
  readonly codexPath: string | null;
  /** `--require-supported-codex`: refuse to start with a Codex outside the supported versions. */
  readonly requireSupportedCodex: boolean;
  readonly logFormat: LogFormat;
}

/** A document of the host protocol `--print-schema` / `--print-openrpc` prints. */
export type ProtocolDocument = 'jsonSchema' | 'openRpc';

/** What the command line asks for: to serve, or only to print the usage, the version or a document of the host protocol. */
export type ServeInvocation =
  | { readonly _tag: 'Serve'; readonly args: ServeArguments }
  | { readonly _tag: 'Help' }
  | { readonly _tag: 'Version' }
  | { readonly _tag: 'PrintDocument'; readonly document: ProtocolDocument };

/** The usage. */
export const SERVE_USAGE = `usage: wework-executor (--stdio | --ws [--port=N] [--allow-origin=ORIGIN]... [--ui]) [options]
  --ui                         with --ws: also serve the web host's page on the same port (prints its URL)
  --executor-home=DIR          the executor's home (else WEWORK_EXECUTOR_HOME, else ~/.wework/executor)
  --workspace=DIR              the default workspace (else the current directory)
  --wait-for-plugin=NAME       a plugin the first turn waits for (repeatable)
  --bundled-plugin=DIR         a plugin package bundled with the desktop app (repeatable; WEWORK_BUNDLED_PLUGINS adds more)
  --migrate-config=fresh|native, --remote-apps=on|off
                               the first-start answer (used once, when a native ~/.codex exists)
  --codex=PATH                 a Codex binary or npm wrapper script to run (else WEWORK_CODEX_PATH, else the installed one)
  --require-supported-codex    refuse to start with a Codex outside the supported versions
  --log-format=text|json       how log lines are written to stderr (default text)
  --print-schema               print the host protocol's JSON Schema (2020-12) document and exit
  --print-openrpc              print the host protocol's OpenRPC document and exit
  --help, --version`;

const OPTIONS = {
  stdio: { type: 'boolean' },
  ws: { type: 'boolean' },
  port: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  ui: { type: 'boolean' },
  'executor-home': { type: 'string' },
  workspace: { type: 'string' },
  'wait-for-plugin': { type: 'string', multiple: true },
  'bundled-plugin': { type: 'string', multiple: true },
  'migrate-config': { type: 'string' },
  'remote-apps': { type: 'string' },
  codex: { type: 'string' },
  'require-supported-codex': { type: 'boolean' },
  'log-format': { type: 'string' },
  'print-schema': { type: 'boolean' },
  'print-openrpc': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

const usageError = (message: string): E.Either<string, never> => E.left(`${message}\n${SERVE_USAGE}`);

/**
 * Reads the command line (without `node` and the script).
 * @example
 * parseServeInvocation(['--ws', '--port=0']); // Right({ _tag: 'Serve', args: { transport: { _tag: 'WebSocket', port: 0, allowedOrigins: [] }, … } })
 * parseServeInvocation(['--help']); // Right({ _tag: 'Help' })
 * parseServeInvocation(['--print-schema']); // Right({ _tag: 'PrintDocument', document: 'jsonSchema' })
 */
export function parseServeInvocation(argv: ReadonlyArray<string>): E.Either<string, ServeInvocation> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return E.right({ _tag: 'Help' });
  if (values.version === true) return E.right({ _tag: 'Version' });
  if (values['print-schema'] === true && values['print-openrpc'] === true) return usageError('choose one of --print-schema and --print-openrpc');
  if (values['print-schema'] === true) return E.right({ _tag: 'PrintDocument', document: 'jsonSchema' });
  if (values['print-openrpc'] === true) return E.right({ _tag: 'PrintDocument', document: 'openRpc' });
  if (positionals.length > 0) return usageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.stdio === true && values.ws === true) return usageError('choose one of --stdio and --ws');
  if (values.stdio !== true && values.ws !== true) return usageError('choose --stdio or --ws');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (values.port !== undefined && (values.port.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)) return usageError('--port needs a port number (0 for any)');
  const allowedOrigins = values['allow-origin'] ?? [];
  if (allowedOrigins.some((origin) => !isOrigin(origin))) return usageError('--allow-origin needs an origin such as http://localhost:5173 (scheme://host[:port]) or null');
  if (values.stdio === true && allowedOrigins.length > 0) return usageError('--allow-origin applies to --ws only');
  if (values.stdio === true && values.ui === true) return usageError('--ui applies to --ws only');
  for (const name of ['executor-home', 'workspace', 'wait-for-plugin', 'bundled-plugin', 'codex'] as const) {
    const given = values[name];
    if ((Array.isArray(given) ? given : given === undefined ? [] : [given]).some((value) => value === '')) return usageError(`--${name} needs a value`);
  }
  const config = values['migrate-config'];
  if (config !== undefined && config !== 'fresh' && config !== 'native') return usageError('--migrate-config needs fresh or native');
  const remoteApps = values['remote-apps'];
  if (remoteApps !== undefined && remoteApps !== 'on' && remoteApps !== 'off') return usageError('--remote-apps needs on or off');
  const logFormat = values['log-format'] === undefined ? 'text' : logFormatOf(values['log-format']);
  if (logFormat === null) return usageError('--log-format needs text or json');
  return E.right({
    _tag: 'Serve',
    args: {
      transport: values.ws === true ? { _tag: 'WebSocket', port, allowedOrigins, ui: values.ui === true } : { _tag: 'Stdio' },
      executorHome: values['executor-home'] ?? null,
      workspace: values.workspace ?? null,
      waitForPlugins: values['wait-for-plugin'] ?? [],
      bundledPlugins: values['bundled-plugin'] ?? [],
      firstStart: { config: config ?? null, remoteApps: remoteApps === undefined ? null : remoteApps === 'on' },
      codexPath: values.codex ?? null,
      requireSupportedCodex: values['require-supported-codex'] === true,
      logFormat,
    },
  });
}

/**
 * Reads the arguments of a serving executor (without `node` and the script); `--help`, `--version`,
 * `--print-schema` and `--print-openrpc` are usage errors here (see {@link parseServeInvocation}).
 * @example
 * parseServeArguments(['--ws', '--port', '0']); // Right({ transport: { _tag: 'WebSocket', port: 0, allowedOrigins: [], ui: false }, executorHome: null, workspace: null, waitForPlugins: [], bundledPlugins: [], firstStart: { config: null, remoteApps: null }, codexPath: null, requireSupportedCodex: false, logFormat: 'text' })
 */
export function parseServeArguments(argv: ReadonlyArray<string>): E.Either<string, ServeArguments> {
  const invocation = parseServeInvocation(argv);
  if (E.isLeft(invocation)) return invocation;
  const right = invocation.right;
  if (right._tag === 'Serve') return E.right(right.args);
  const flag = right._tag === 'Help' ? '--help' : right._tag === 'Version' ? '--version' : right.document === 'jsonSchema' ? '--print-schema' : '--print-openrpc';
  return usageError(`${flag} does not serve`);
}

/** Whether `text` is an origin as browsers send it: `null`, or `scheme://host[:port]` in its normal form (lower case, no default port, nothing after). */
function isOrigin(text: string): boolean {
  if (text === 'null') return true;
  try {
    const url = new URL(text);
    return url.origin !== 'null' && url.origin === text;
  } catch {
    return false;
  }
}
