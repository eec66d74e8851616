/**
 * The recording stdio MCP proxy: how to start any MCP server behind it, and how to read
 * what it recorded.
 *
 * @example
 * ```ts
 * import { proxiedCommand } from './proxy/index.js';
 * const { command, args } = proxiedCommand({ command: 'node', args: ['server.js'], logFile: '/tmp/forms.jsonl' });
 * // configure the MCP server as `command`/`args`; every message it exchanges lands in forms.jsonl
 * ```
 */
import { fileURLToPath } from 'node:url';
import { formatProxyArguments } from './ProxyArguments.js';

/** A command line: a program and its arguments. */
export interface CommandLine {
  readonly command: string;
  readonly args: ReadonlyArray<string>;
}

/**
 * Path of the built proxy entry (`dist/proxy/main.js`). `src/proxy` and `dist/proxy` are both two
 * levels below the app's root, so this holds whether the caller runs from source or from the build.
 */
export function proxyMainPath(): string {
  return fileURLToPath(new URL('../../dist/proxy/main.js', import.meta.url));
}

/**
 * The command line that starts `command args` behind the recording proxy, logging to `logFile`.
 */
export function proxiedCommand(options: CommandLine & { readonly logFile: string }): CommandLine {
  return {
    command: process.execPath,
    args: [proxyMainPath(), ...formatProxyArguments({ logFile: options.logFile, command: options.command, args: options.args })],
  };
}

export { PROXY_USAGE, formatProxyArguments, parseProxyArguments, type ProxyArguments, type ProxyUsageError } from './ProxyArguments.js';
export {
  Direction,
  MessageEntry,
  ProxyLogEntry,
  UnparsedEntry,
  classifyMessage,
  decodeProxyLog,
  formatLogEntry,
  logEntry,
  type MessageKind,
  type ProxyLogDecodeError,
} from './ProxyLog.js';
export { EXIT_COMMAND_NOT_FOUND, EXIT_LOG_UNAVAILABLE, runProxy, type ProxyProcess, type ProxyTimings } from './runProxy.js';
