/**
 * The proxy's command line: `--log <file.jsonl> -- <command> [args...]`. Everything after `--`
 * belongs to the proxied command, untouched.
 *
 * Every function here is pure: plain data in, plain data or an `Either` out.
 */
import * as E from 'fp-ts/lib/Either.js';

/** What the proxy was asked to do. */
export interface ProxyArguments {
  /** JSON Lines file the messages are appended to. */
  readonly logFile: string;
  /** The MCP server to start. */
  readonly command: string;
  readonly args: ReadonlyArray<string>;
}

/** The command line could not be understood. */
export interface ProxyUsageError {
  readonly _tag: 'ProxyUsageError';
  readonly message: string;
}

/** One line of usage text. */
export const PROXY_USAGE = 'usage: main.js --log <file.jsonl> -- <command> [args...]';

function usageError(message: string): E.Either<ProxyUsageError, never> {
  return E.left({ _tag: 'ProxyUsageError', message });
}

/**
 * Parses the proxy's arguments (without the `node` and script path).
 *
 * @example
 * ```ts
 * parseProxyArguments(['--log', 'forms.jsonl', '--', 'node', 'server.js']);
 * // Right({ logFile: 'forms.jsonl', command: 'node', args: ['server.js'] })
 * ```
 */
export function parseProxyArguments(argv: ReadonlyArray<string>): E.Either<ProxyUsageError, ProxyArguments> {
  const separator = argv.indexOf('--');
  if (separator === -1) return usageError('missing "--" before the command to proxy');
  const options = argv.slice(0, separator);
  const [command, ...args] = argv.slice(separator + 1);
  if (command === undefined || command === '') return usageError('missing the command to proxy after "--"');
  let logFile: string | undefined;
  for (let i = 0; i < options.length; i += 1) {
    const option = options[i];
    if (option === '--log') {
      const value = options[i + 1];
      if (value === undefined || value === '') return usageError('--log needs a file name');
      if (logFile !== undefined) return usageError('--log given more than once');
      logFile = value;
      i += 1;
    } else if (option?.startsWith('--log=') === true) {
      if (logFile !== undefined) return usageError('--log given more than once');
      logFile = option.slice('--log='.length);
      if (logFile === '') return usageError('--log needs a file name');
    } else {
      return usageError(`unknown option "${option ?? ''}"`);
    }
  }
  if (logFile === undefined) return usageError('missing --log <file.jsonl>');
  return E.right({ logFile, command, args });
}

/** The arguments for {@link parseProxyArguments} that produce `proxy` (its inverse). */
export function formatProxyArguments(proxy: ProxyArguments): ReadonlyArray<string> {
  return ['--log', proxy.logFile, '--', proxy.command, ...proxy.args];
}
