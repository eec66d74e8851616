/**
 * The cloud executor's configuration, read from its environment at the edge:
 *
 * | variable | meaning | default |
 * | --- | --- | --- |
 * | `WEGENT_PLUGIN_RUNTIME_TARGET` | `codex` (Codex plugin runtimes only) or `dual` | `codex` |
 * | `WEWORK_EXECUTOR_HOME` | the executor's directory | `<user home>/.wework/executor` |
 * | `WEGENT_CODEX_HOME` | the Wework Codex home (resolved by `@wework/codex-home`) | `<executor home>/codex` |
 * | `WEWORK_CLAUDE_HOME` | the isolated Claude home (cleaned of stale registrations in `codex` mode) | `<executor home>/claude` |
 * | `WEWORK_WORKSPACE` | the app-server's working directory | the current directory |
 * | `WEWORK_CODEX_PATH` | a Codex binary or npm wrapper script to run (absolute; `--codex` overrides it) | the installed `@openai/codex` |
 *
 * Every function here is pure: the variables and the defaults in, the configuration or a typed error out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { RuntimeTarget } from '@wework/sync-transaction';

/** What the executor runs with. */
export interface CloudConfig {
  readonly runtimeTarget: RuntimeTarget;
  /** Absolute. */
  readonly executorHome: string;
  /** Absolute. */
  readonly claudeHome: string;
  /** Absolute. */
  readonly workspace: string;
  /** The user's home (absolute): `HOME` of the app-server, and where a native `~/.codex` would be. */
  readonly userHome: string;
  /** A Codex binary or npm wrapper script to run instead of the installed one (absolute), or `null`. */
  readonly codexPath: string | null;
}

/** A variable holds a value the executor cannot use. */
export interface InvalidSetting {
  readonly _tag: 'InvalidSetting';
  readonly variable: string;
  readonly message: string;
}

const isAbsolute = (path: string): boolean => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);

const setting = (env: Readonly<Record<string, string | undefined>>, name: string): string | null => {
  const value = env[name];
  return value === undefined || value === '' ? null : value;
};

const absolute = (variable: string, path: string): E.Either<InvalidSetting, string> =>
  isAbsolute(path) ? E.right(path) : E.left({ _tag: 'InvalidSetting', variable, message: `${variable} must be an absolute path` });

/**
 * Reads the configuration. `host.userHome` and `host.cwd` are the process's (absolute).
 *
 * @example
 * ```ts
 * readCloudConfig({ WEGENT_PLUGIN_RUNTIME_TARGET: 'codex' }, { userHome: '/home/ada', cwd: '/srv' });
 * // Right({ runtimeTarget: 'codex', executorHome: '/home/ada/.wework/executor', claudeHome: '/home/ada/.wework/executor/claude', workspace: '/srv', userHome: '/home/ada' })
 * ```
 */
export const readCloudConfig = (
  env: Readonly<Record<string, string | undefined>>,
  host: { readonly userHome: string; readonly cwd: string },
): E.Either<InvalidSetting, CloudConfig> => {
  const target = setting(env, 'WEGENT_PLUGIN_RUNTIME_TARGET') ?? 'codex';
  if (target !== 'codex' && target !== 'dual')
    return E.left({ _tag: 'InvalidSetting', variable: 'WEGENT_PLUGIN_RUNTIME_TARGET', message: 'WEGENT_PLUGIN_RUNTIME_TARGET must be "codex" or "dual"' });
  const executorHome = absolute('WEWORK_EXECUTOR_HOME', setting(env, 'WEWORK_EXECUTOR_HOME') ?? `${host.userHome}/.wework/executor`);
  if (E.isLeft(executorHome)) return executorHome;
  const claudeHome = absolute('WEWORK_CLAUDE_HOME', setting(env, 'WEWORK_CLAUDE_HOME') ?? `${executorHome.right}/claude`);
  if (E.isLeft(claudeHome)) return claudeHome;
  const workspace = absolute('WEWORK_WORKSPACE', setting(env, 'WEWORK_WORKSPACE') ?? host.cwd);
  if (E.isLeft(workspace)) return workspace;
  const codexPath = setting(env, 'WEWORK_CODEX_PATH');
  const codex = codexPath === null ? E.right(null) : absolute('WEWORK_CODEX_PATH', codexPath);
  if (E.isLeft(codex)) return codex;
  return E.right({ runtimeTarget: target, executorHome: executorHome.right, claudeHome: claudeHome.right, workspace: workspace.right, userHome: host.userHome, codexPath: codex.right });
};
