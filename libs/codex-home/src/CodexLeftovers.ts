/**
 * Codex's own interrupted writes in the Wework Codex home. Codex 0.171.0 writes a new thread's shell
 * snapshot as `shell_snapshots/<thread>.tmp-<n>` and renames it; when that write fails (a full disk) the
 * temporary file stays, and Codex never removes it. The executor removes them before Codex starts,
 * when no Codex can be writing one.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { isNotFound, joinPath, type FileSystemError, type FileSystemPort } from '@wework/ports';
import type { CodexHomeLayout } from './HomeLayout.js';

/** The directory of Codex's shell snapshots, below the Codex home. */
const SHELL_SNAPSHOTS = 'shell_snapshots';

/** Whether `name` is a shell snapshot Codex began and did not finish (`<thread>.tmp-<digits>`). */
export const isInterruptedShellSnapshot = (name: string): boolean => /^[^/\\]+\.tmp-[0-9]+$/.test(name);

/**
 * Removes the shell snapshots Codex began and did not finish; answers how many it removed. Run it only
 * while no Codex uses the home (before the app-server starts). A missing directory is nothing to do; a
 * file that cannot be removed is left for the next start and reported.
 *
 * @example
 * ```ts
 * await sweepInterruptedShellSnapshots(fs, layout)(); // Right(0) on a clean home
 * ```
 */
export const sweepInterruptedShellSnapshots =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<FileSystemError, number> =>
  async () => {
    const directory = joinPath(layout.platform, layout.home, SHELL_SNAPSHOTS);
    const names = await fs.listDirectory(directory)();
    if (E.isLeft(names)) return isNotFound(names.left) || names.left.code === 'ENOTDIR' ? E.right(0) : names;
    let removed = 0;
    for (const name of names.right.filter(isInterruptedShellSnapshot)) {
      const gone = await fs.removeFile(joinPath(layout.platform, directory, name))();
      if (E.isLeft(gone) && !isNotFound(gone.left)) return gone;
      if (E.isRight(gone)) removed++;
    }
    return E.right(removed);
  };
