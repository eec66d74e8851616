/**
 * The Wework Codex home wired to the Node file system and the running process's environment.
 */
import { homedir } from 'node:os';
import * as E from 'fp-ts/lib/Either.js';
import { nodeFileSystem } from '@wework/ports/node';
import { codexHome, type CodexHome } from '../CodexHome.js';
import { resolveCodexHome, type HomeIsNativeHome, type InvalidHomePath } from '../HomeLayout.js';

/** Options of {@link nodeCodexHome}. */
export interface NodeCodexHomeOptions {
  /** The executor home (absolute); the Wework Codex home is its `codex` child unless `WEGENT_CODEX_HOME` is set. */
  readonly executorHome: string;
  /** Environment variables; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The user's home; defaults to `os.homedir()`. The native Codex home is its `.codex` child. */
  readonly userHome?: string;
}

/**
 * The Wework Codex home of this process: the layout resolved from the environment, bound to the
 * Node file system. Nothing touches the disk until a program of the returned value is run.
 *
 * @example
 * ```ts
 * import { nodeCodexHome } from '@wework/codex-home/node';
 *
 * const home = nodeCodexHome({ executorHome: '/home/ada/.wegent-executor' });
 * if (home._tag === 'Right') {
 *   const prepared = await home.right.prepareForStart(askTheUser)();
 *   // then spawn `codex app-server` with CODEX_HOME = home.right.layout.home
 * }
 * ```
 */
export const nodeCodexHome = (options: NodeCodexHomeOptions): E.Either<InvalidHomePath | HomeIsNativeHome, CodexHome> => {
  const fs = nodeFileSystem();
  const layout = resolveCodexHome({
    variables: options.env ?? process.env,
    executorHome: options.executorHome,
    userHome: options.userHome ?? homedir(),
    platform: fs.platform,
  });
  return E.map((resolved: Parameters<typeof codexHome>[1]) => codexHome(fs, resolved))(layout);
};
