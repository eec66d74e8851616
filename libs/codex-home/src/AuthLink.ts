/**
 * Reusing the user's Codex login: the Wework Codex home's auth.json is a symbolic link to the native
 * `~/.codex/auth.json` (a copy on Windows). Plugins, marketplace caches and config stay in the
 * Wework home; the native home is only read here.
 *
 * The program is a pure description run through a {@link FileSystemPort}.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { joinPath, PRIVATE_FILE_MODE, resolveLinkTarget, writeFileAtomic, type FileSystemError, type FileSystemPort } from '@wework/ports';
import type { CodexHomeLayout } from './HomeLayout.js';

/** What {@link linkNativeAuth} did. */
export type AuthLinkOutcome =
  /** A symbolic link to the native auth.json was created (`replacedStaleLink`: a dangling one was removed first). */
  | { readonly _tag: 'Linked'; readonly replacedStaleLink: boolean }
  /** Windows: the native auth.json was copied into the Wework home (mode 0600 where it applies). */
  | { readonly _tag: 'Copied' }
  /** auth.json already links to an existing file; left as it is. */
  | { readonly _tag: 'AlreadyLinked'; readonly target: string }
  /** auth.json is a file of the Wework home (a Wework sign-in, a switched account or an earlier copy); kept. */
  | { readonly _tag: 'OwnAuth' }
  /** There is no native auth.json to reuse (`removedStaleLink`: a dangling link was removed). */
  | { readonly _tag: 'NoNativeAuth'; readonly removedStaleLink: boolean };

/** auth.json in the Wework home is neither a file nor a link (a directory, a socket...). */
export interface AuthPathOccupied {
  readonly _tag: 'AuthPathOccupied';
  readonly path: string;
}

/** The name a new link is made under before it is renamed over a dangling one (a temporary name). */
const linkTempName = '.auth.json.tmp-link';

/**
 * Links (Unix) or copies (Windows) the native auth.json into the Wework home when the Wework home
 * has none. A dangling ("stale") link is replaced in one step (the new link is made under a temporary
 * name and renamed over it) and removed when there is nothing to link to; a live link or a file is
 * kept, so a sign-in made in Wework is never replaced. Never writes the native home. All or nothing:
 * when a step fails, auth.json is as it was and no temporary link is left.
 *
 * Run it at every executor start, after {@link ensureCodexHome} and before starting the app-server.
 */
export const linkNativeAuth =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AuthPathOccupied | FileSystemError, AuthLinkOutcome> =>
  async () => {
    const own = await fs.lstat(layout.authFile)();
    if (E.isLeft(own)) return own;
    const stale = own.right !== null;
    if (own.right !== null) {
      if (own.right.kind === 'file') return E.right({ _tag: 'OwnAuth' });
      if (own.right.kind !== 'symlink') return E.left({ _tag: 'AuthPathOccupied', path: layout.authFile });
      const target = await fs.stat(layout.authFile)();
      if (E.isLeft(target)) return target;
      if (target.right !== null) {
        const content = await fs.readLink(layout.authFile)();
        if (E.isLeft(content)) return content;
        return E.right({ _tag: 'AlreadyLinked', target: resolveLinkTarget(fs.platform, layout.authFile, content.right) });
      }
    }
    const native = await fs.stat(layout.nativeAuthFile)();
    if (E.isLeft(native)) return native;
    if (native.right?.kind !== 'file') {
      if (!stale) return E.right({ _tag: 'NoNativeAuth', removedStaleLink: false });
      const removed = await fs.remove(layout.authFile)();
      return E.isLeft(removed) ? removed : E.right({ _tag: 'NoNativeAuth', removedStaleLink: true });
    }
    if (fs.platform === 'windows') {
      // The copy is renamed over a stale link, which is replaced, never followed.
      const bytes = await fs.readFile(layout.nativeAuthFile, { followSymlink: true })();
      if (E.isLeft(bytes)) return bytes;
      const written = await writeFileAtomic(fs, layout.authFile, bytes.right, PRIVATE_FILE_MODE)();
      return E.isLeft(written) ? written : E.right({ _tag: 'Copied' });
    }
    if (!stale) {
      const linked = await fs.symlink(layout.nativeAuthFile, layout.authFile)();
      return E.isLeft(linked) ? linked : E.right({ _tag: 'Linked', replacedStaleLink: false });
    }
    const temp = joinPath(fs.platform, layout.home, linkTempName);
    // A temporary link left by a crash is removed first.
    const leftover = await fs.lstat(temp)();
    if (E.isLeft(leftover)) return leftover;
    if (leftover.right !== null) {
      const removed = await fs.removeFile(temp)();
      if (E.isLeft(removed)) return removed;
    }
    const linked = await fs.symlink(layout.nativeAuthFile, temp)();
    if (E.isLeft(linked)) return linked;
    const renamed = await fs.rename(temp, layout.authFile)();
    if (E.isLeft(renamed)) {
      await fs.removeFile(temp)();
      return renamed;
    }
    return E.right({ _tag: 'Linked', replacedStaleLink: true });
  };
