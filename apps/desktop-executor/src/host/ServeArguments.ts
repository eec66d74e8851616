/**
 * The command line of `serve.js`: the transport (`--stdio` or `--ws [--port N]`), the executor home
 * (`--executor-home DIR`, else `WEWORK_EXECUTOR_HOME`, else `~/.wework/executor`), the default workspace
 * (`--workspace DIR`, else the current directory) and the plugins to wait for before a first turn
 * (`--wait-for-plugin NAME`, repeatable), and the answer to the first-start question, which the host
 * asks the user before launching (`--migrate-config fresh|native`, `--remote-apps on|off`; used only when
 * the Wework Codex home is not initialised yet and a native `~/.codex` exists). With `--ws`, the origins
 * whose WebSocket upgrades are accepted (`--allow-origin ORIGIN`, repeatable: `scheme://host[:port]` as
 * a browser sends it, or `null`); an upgrade without an `Origin` header is always accepted. `--ui` (with
 * `--ws`) also serves the web host's page on the same port and allows its origin.
 *
 * Every function here is pure.
 */
import * as E from 'fp-ts/lib/Either.js';

/** What `serve.js` was asked to do. */
export interface ServeArguments {
  readonly transport: { readonly _tag: 'Stdio' } | { readonly _tag: 'WebSocket'; readonly port: number; readonly allowedOrigins: ReadonlyArray<string>; readonly ui: boolean };
  readonly executorHome: string | null;
  readonly workspace: string | null;
  readonly waitForPlugins: ReadonlyArray<string>;
  /** The first-start answer; `null` parts take the default (fresh config, remote apps on). */
  readonly firstStart: { readonly config: 'fresh' | 'native' | null; readonly remoteApps: boolean | null };
}

/** The usage line. */
export const SERVE_USAGE =
  'usage: serve.js (--stdio | --ws [--port N] [--allow-origin ORIGIN]... [--ui]) [--executor-home DIR] [--workspace DIR] [--wait-for-plugin NAME]... [--migrate-config fresh|native] [--remote-apps on|off]';

/**
 * Reads the arguments (without `node` and the script).
 * @example
 * parseServeArguments(['--ws', '--port', '0']); // Right({ transport: { _tag: 'WebSocket', port: 0, allowedOrigins: [], ui: false }, executorHome: null, workspace: null, waitForPlugins: [], firstStart: { config: null, remoteApps: null } })
 */
export function parseServeArguments(argv: ReadonlyArray<string>): E.Either<string, ServeArguments> {
  let transport: ServeArguments['transport'] | null = null;
  let port = 0;
  const allowedOrigins: string[] = [];
  let executorHome: string | null = null;
  let workspace: string | null = null;
  const waitForPlugins: string[] = [];
  let config: 'fresh' | 'native' | null = null;
  let remoteApps: boolean | null = null;
  let ui = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = (): string | undefined => argv[++i];
    switch (arg) {
      case '--stdio':
      case '--ws': {
        const next = arg === '--stdio' ? 'Stdio' : 'WebSocket';
        if (transport !== null && transport._tag !== next) return E.left(`choose one of --stdio and --ws\n${SERVE_USAGE}`);
        transport = next === 'Stdio' ? { _tag: 'Stdio' } : { _tag: 'WebSocket', port: 0, allowedOrigins: [], ui: false };
        break;
      }
      case '--port': {
        const text = value();
        const parsed = Number(text);
        if (text === undefined || !Number.isInteger(parsed) || parsed < 0 || parsed > 65535) return E.left(`--port needs a port number (0 for any)\n${SERVE_USAGE}`);
        port = parsed;
        break;
      }
      case '--allow-origin': {
        const text = value();
        if (text === undefined || !isOrigin(text)) return E.left(`--allow-origin needs an origin such as http://localhost:5173 (scheme://host[:port]) or null\n${SERVE_USAGE}`);
        allowedOrigins.push(text);
        break;
      }
      case '--ui':
        ui = true;
        break;
      case '--executor-home':
      case '--workspace':
      case '--wait-for-plugin': {
        const text = value();
        if (text === undefined || text === '') return E.left(`${arg} needs a value\n${SERVE_USAGE}`);
        if (arg === '--executor-home') executorHome = text;
        else if (arg === '--workspace') workspace = text;
        else waitForPlugins.push(text);
        break;
      }
      case '--migrate-config': {
        const text = value();
        if (text !== 'fresh' && text !== 'native') return E.left(`--migrate-config needs fresh or native\n${SERVE_USAGE}`);
        config = text;
        break;
      }
      case '--remote-apps': {
        const text = value();
        if (text !== 'on' && text !== 'off') return E.left(`--remote-apps needs on or off\n${SERVE_USAGE}`);
        remoteApps = text === 'on';
        break;
      }
      default:
        return E.left(`unknown argument ${JSON.stringify(arg)}\n${SERVE_USAGE}`);
    }
  }
  if (transport === null) return E.left(`choose --stdio or --ws\n${SERVE_USAGE}`);
  if (transport._tag === 'Stdio' && allowedOrigins.length > 0) return E.left(`--allow-origin applies to --ws only\n${SERVE_USAGE}`);
  if (transport._tag === 'Stdio' && ui) return E.left(`--ui applies to --ws only\n${SERVE_USAGE}`);
  return E.right({ transport: transport._tag === 'WebSocket' ? { _tag: 'WebSocket', port, allowedOrigins, ui } : transport, executorHome, workspace, waitForPlugins, firstStart: { config, remoteApps } });
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
