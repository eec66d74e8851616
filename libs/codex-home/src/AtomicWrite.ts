/**
 * Writes over the {@link FileSystemPort}: where a write through a symbolic link lands. The atomic
 * replacement itself is `writeFileAtomic` of `@wework/ports`, its one home.
 *
 * Programs here are pure descriptions: they run only through the port they are given.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { isNotFound, resolveLinkTarget, type FileStat, type FileSystemError, type FileSystemPort } from '@wework/ports';

/** Where a write to a path lands when a symbolic link there is written through. */
export type WriteDestination =
  /** Nothing exists at the path: write it. */
  | { readonly _tag: 'Absent'; readonly path: string }
  /** A file (or another non-link) exists at the path. */
  | { readonly _tag: 'Direct'; readonly path: string; readonly stat: FileStat }
  /** The path is a symbolic link to an existing file at `path` (every link resolved). */
  | { readonly _tag: 'ThroughLink'; readonly link: string; readonly path: string; readonly stat: FileStat }
  /** The path is a symbolic link whose target does not exist; `target` is where it points. */
  | { readonly _tag: 'DanglingLink'; readonly link: string; readonly target: string };

/**
 * Finds where writing `path` "through" a symbolic link lands, the way Codex writes a linked
 * auth.json or config.toml: the link is kept and its target's content is replaced.
 */
export const writeDestinationOf =
  (fs: FileSystemPort, path: string): TE.TaskEither<FileSystemError, WriteDestination> =>
  async () => {
    const own = await fs.lstat(path)();
    if (E.isLeft(own)) return own;
    if (own.right === null) return E.right({ _tag: 'Absent', path });
    if (own.right.kind !== 'symlink') return E.right({ _tag: 'Direct', path, stat: own.right });
    const real = await fs.realPath(path)();
    if (E.isLeft(real)) {
      if (!isNotFound(real.left) && real.left.code !== 'ELOOP') return real;
      const content = await fs.readLink(path)();
      if (E.isLeft(content)) return content;
      return E.right({ _tag: 'DanglingLink', link: path, target: resolveLinkTarget(fs.platform, path, content.right) });
    }
    const target = await fs.stat(real.right)();
    if (E.isLeft(target)) return target;
    if (target.right === null) return E.right({ _tag: 'DanglingLink', link: path, target: real.right });
    return E.right({ _tag: 'ThroughLink', link: path, path: real.right, stat: target.right });
  };
