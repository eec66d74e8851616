/**
 * The Node {@link BridgeRunner}: runs a bridge command as a child process without a shell, in its own
 * process group, inside the plugin root; bounds its stdout; terminates the whole process tree on
 * timeout, cancellation, oversized output, and after the command exits (no orphan outlives a run).
 *
 * stdout is read only to find the one status object; stderr is counted but never kept, so nothing a
 * bridge prints can reach a log or an error.
 */
import { spawn } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
// The Node side of a pure library may use this IO library (see the README, "Dependencies").
import { terminateProcessTree } from '@wework/app-server-client/node';
import type { BridgeError } from '../BridgeError.js';
import { bridgeError } from '../BridgeError.js';
import type { BridgeStatus } from '../BridgeStatus.js';
import { DEFAULT_MAX_STDOUT_BYTES, parseBridgeOutput } from '../BridgeStatus.js';
import type { AuthLogger, BridgeInvocation, BridgeRunner } from '../Ports.js';
import { TOOL_PATH_ENV } from '../Ports.js';

/** Options of {@link createNodeBridgeRunner}. */
export interface NodeBridgeRunnerOptions {
  /** Interpreter of `.js`, `.mjs` and `.cjs` bridges; default the running Node (`process.execPath`). */
  readonly nodePath?: string;
  /** Bound of a bridge's stdout; default {@link DEFAULT_MAX_STDOUT_BYTES}. */
  readonly maxStdoutBytes?: number;
  /** How long SIGTERM gets before SIGKILL when a tree is terminated; default 1000 ms. */
  readonly killGraceMs?: number;
  /**
   * The complete environment of the bridges. Default: only the variables of this process named in
   * {@link DEFAULT_BRIDGE_ENV} and `passEnv`, so the executor's own secrets never reach plugin code.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** More variable names to pass from this process's environment (with the default environment). */
  readonly passEnv?: readonly string[];
  readonly log?: AuthLogger;
}

/**
 * Variables a bridge inherits by default: what CLIs need to find programs, their own configuration and
 * credential stores, the desktop session (to open a browser), locale, temp directories and proxies.
 */
export const DEFAULT_BRIDGE_ENV: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'TMPDIR', 'TMP', 'TEMP',
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR', 'DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'ALL_PROXY', 'all_proxy',
  'SystemRoot', 'SYSTEMROOT', 'windir', 'ComSpec', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'ProgramData', 'ProgramFiles', 'HOMEDRIVE', 'HOMEPATH',
];

const inheritedEnv = (names: readonly string[]): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && (names.includes(key) || key.startsWith('LC_'))) env[key] = value;
  }
  return env;
};

const SCRIPT_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

const within = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/** Resolves the program inside the plugin root, following symlinks, and refuses escapes. */
async function resolveProgram(pluginRoot: string, program: string): Promise<E.Either<string, string>> {
  try {
    const root = await realpath(pluginRoot);
    const target = await realpath(resolve(root, ...program.split('/')));
    return within(root, target) ? E.right(target) : E.left('OUTSIDE_PLUGIN_ROOT');
  } catch (error) {
    return E.left((error as NodeJS.ErrnoException).code ?? 'UNRESOLVABLE');
  }
}

/**
 * A {@link BridgeRunner} for Node.
 *
 * @example
 * ```ts
 * import { createNodeBridgeRunner } from '@wework/local-auth/node';
 * const runner = createNodeBridgeRunner();
 * const status = await runner.run({ connector: 'glab', command: 'health', pluginRoot, argv, timeoutMs: 45_000 });
 * ```
 */
export function createNodeBridgeRunner(options: NodeBridgeRunnerOptions = {}): BridgeRunner {
  const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES;
  const graceMs = options.killGraceMs ?? 1000;
  const log = options.log ?? (() => undefined);
  return {
    async run(invocation: BridgeInvocation): Promise<E.Either<BridgeError, BridgeStatus>> {
      const at = { connector: invocation.connector, command: invocation.command };
      if (invocation.signal?.aborted === true) return E.left(bridgeError.cancelled(at));
      const program = await resolveProgram(invocation.pluginRoot, invocation.argv.program);
      if (E.isLeft(program)) {
        log({ event: 'bridge.spawn_failed', connector: at.connector, detail: program.left });
        return E.left(bridgeError.spawnFailed(at, program.left));
      }
      const script = SCRIPT_EXTENSIONS.has(extname(program.right).toLowerCase());
      const command = script ? (options.nodePath ?? process.execPath) : program.right;
      const args = script ? [program.right, ...invocation.argv.args] : [...invocation.argv.args];
      const env: Record<string, string> = {};
      const base = options.env ?? inheritedEnv([...DEFAULT_BRIDGE_ENV, ...(options.passEnv ?? [])]);
      for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
      if (invocation.toolPath !== undefined) env[TOOL_PATH_ENV] = invocation.toolPath;
      else delete env[TOOL_PATH_ENV];

      const child = spawn(command, args, {
        cwd: invocation.pluginRoot,
        env,
        shell: false,
        detached: process.platform !== 'win32',
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
      for (const stream of [child.stdout, child.stderr]) stream.on('error', () => undefined);
      const spawned = await new Promise<E.Either<string, number>>((settle) => {
        child.once('spawn', () => settle(child.pid === undefined ? E.left('NO_PID') : E.right(child.pid)));
        child.once('error', (error: NodeJS.ErrnoException) => settle(E.left(error.code ?? 'SPAWN_FAILED')));
      });
      child.on('error', () => undefined);
      if (E.isLeft(spawned)) {
        log({ event: 'bridge.spawn_failed', connector: at.connector, detail: spawned.left });
        return E.left(bridgeError.spawnFailed(at, spawned.left));
      }
      const pid = spawned.right;
      log({ event: 'bridge.spawned', connector: at.connector, detail: invocation.command });
      invocation.onSpawn?.();

      const chunks: Buffer[] = [];
      let stdoutBytes = 0;
      let stderrBytes = 0;
      let reason: 'timeout' | 'cancel' | 'too_large' | undefined;
      let rootExited = false;
      let termination: Promise<number> | undefined;

      const terminate = (why: 'timeout' | 'cancel' | 'too_large' | 'leftovers'): Promise<number> => {
        if (why !== 'leftovers' && reason === undefined) reason = why;
        termination ??= terminateProcessTree(pid, { graceMs: why === 'leftovers' ? 0 : graceMs, rootExited }).then(
          (report) => report.survivors.length,
          () => 0,
        );
        return termination;
      };

      child.stdout.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes > maxStdout) {
          void terminate('too_large');
          return;
        }
        chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderrBytes += chunk.length;
      });

      const timer = setTimeout(() => void terminate('timeout'), invocation.timeoutMs);
      const onAbort = (): void => void terminate('cancel');
      invocation.signal?.addEventListener('abort', onAbort, { once: true });

      const closed = new Promise<void>((settle) => child.once('close', () => settle()));
      await new Promise<void>((settle) => {
        if (child.exitCode !== null || child.signalCode !== null) settle();
        else child.once('exit', () => settle());
      });
      rootExited = true;
      const exited = { code: child.exitCode, signal: child.signalCode };
      clearTimeout(timer);
      invocation.signal?.removeEventListener('abort', onAbort);
      // A grandchild may still hold stdout open or linger on its own: end the rest of the tree too.
      const survivors = await terminate('leftovers');
      await closed;
      log({ event: 'bridge.exited', connector: at.connector, detail: `${invocation.command} code=${exited.code} signal=${exited.signal} stdout=${stdoutBytes}B stderr=${stderrBytes}B${reason === undefined ? '' : ` ${reason}`}` });

      if (survivors > 0) return E.left(bridgeError.treeSurvived(at, survivors));
      if (reason === 'cancel') return E.left(bridgeError.cancelled(at));
      if (reason === 'timeout') return E.left(bridgeError.timedOut(at, invocation.timeoutMs));
      if (reason === 'too_large') return E.left(bridgeError.outputTooLarge(at, maxStdout));
      if (exited.code !== 0 || exited.signal !== null) return E.left(bridgeError.exited(at, exited.code, exited.signal));
      const status = parseBridgeOutput(Buffer.concat(chunks).toString('utf8'), at);
      if (E.isLeft(status)) log({ event: 'bridge.refused', connector: at.connector, detail: status.left._tag });
      return status;
    },
  };
}
