/**
 * An in-memory {@link FileSystemPort}: files, directories and symbolic links with permission bits,
 * following links the way POSIX does (every link in the directories of a path; the last one only
 * when asked). Exported by `./testing` for tests of programs written against the port.
 *
 * Pure TypeScript: no IO, no clock, no randomness (temporary names count up). Nothing is ever lost on
 * a crash here, so `flush` and the durable variants only do what their plain counterparts do.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { DEFAULT_READ_MAX_BYTES, fileSystemError, type FileOperation, type FileStat, type FileSystemError, type FileSystemPort, type FileToWrite, type ReadOptions } from '../FileSystemPort.js';
import { baseNameOf, isAbsolutePath, joinPath, normalizePath, parentOf, resolveLinkTarget, type Platform } from '../Platform.js';
import { sha256Hex } from './Sha256.js';

/** One entry of the in-memory file system. */
export type MemoryEntry =
  | { readonly kind: 'file'; readonly bytes: Uint8Array; readonly mode: number }
  | { readonly kind: 'directory'; readonly mode: number }
  | { readonly kind: 'symlink'; readonly target: string };

const MAX_LINKS = 40;

type Resolved = E.Either<string, string>;

/** Links followed so far while resolving one path. */
interface LinkBudget {
  hops: number;
}

/** An in-memory file system implementing {@link FileSystemPort}, with helpers to set up and inspect it. */
export class MemoryFileSystem implements FileSystemPort {
  readonly platform: Platform;
  readonly #entries = new Map<string, MemoryEntry>();
  #tempCounter = 0;

  constructor(platform: Platform = 'unix') {
    this.platform = platform;
  }

  // ---- set-up and inspection helpers (synchronous) ----

  /** Creates a directory and its parents (mode 0755 unless given). */
  addDirectory(path: string, mode = 0o755): this {
    const normalized = this.#key(path);
    const parent = parentOf(this.platform, normalized);
    if (parent !== normalized && !this.#entries.has(parent) && !this.#isRoot(parent)) this.addDirectory(parent);
    if (!this.#entries.has(normalized) && !this.#isRoot(normalized)) this.#entries.set(normalized, { kind: 'directory', mode });
    return this;
  }

  /** Creates or replaces a file (parents created; mode 0644 unless given). */
  addFile(path: string, content: string | Uint8Array, mode = 0o644): this {
    const normalized = this.#key(path);
    this.addDirectory(parentOf(this.platform, normalized));
    this.#entries.set(normalized, { kind: 'file', bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content, mode });
    return this;
  }

  /** Creates or replaces a symbolic link at `path` whose content is `target` (parents created). */
  addSymlink(target: string, path: string): this {
    const normalized = this.#key(path);
    this.addDirectory(parentOf(this.platform, normalized));
    this.#entries.set(normalized, { kind: 'symlink', target });
    return this;
  }

  /** The entry stored at `path` itself (links not followed). */
  entryAt(path: string): MemoryEntry | undefined {
    return this.#entries.get(this.#key(path));
  }

  /** The text of the file `path` resolves to (links followed), or `undefined`. */
  textAt(path: string): string | undefined {
    const resolved = this.#resolve(path, true);
    if (E.isLeft(resolved)) return undefined;
    const entry = this.#entries.get(resolved.right);
    return entry?.kind === 'file' ? new TextDecoder().decode(entry.bytes) : undefined;
  }

  /** Every path at or below `root`, sorted, with its entry: compare two of these to prove nothing changed. */
  tree(root: string): ReadonlyArray<readonly [string, MemoryEntry]> {
    const base = this.#key(root);
    const separator = this.platform === 'windows' ? '\\' : '/';
    return [...this.#entries.entries()]
      .filter(([path]) => path === base || path.startsWith(base.endsWith(separator) ? base : base + separator))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  // ---- the port ----

  lstat(path: string): TE.TaskEither<FileSystemError, FileStat | null> {
    return this.#run('lstat', path, () => this.#statOf(path, false));
  }

  stat(path: string): TE.TaskEither<FileSystemError, FileStat | null> {
    return this.#run('stat', path, () => this.#statOf(path, true));
  }

  readFile(path: string, options: ReadOptions): TE.TaskEither<FileSystemError, Uint8Array> {
    return this.#run('readFile', path, () => {
      const resolved = this.#resolve(path, options.followSymlink);
      if (E.isLeft(resolved)) return resolved;
      const entry = this.#entries.get(resolved.right);
      if (entry === undefined) return E.left('ENOENT');
      if (entry.kind === 'symlink') return E.left('ELOOP');
      if (entry.kind === 'directory') return E.left('EISDIR');
      if (entry.bytes.length > (options.maxBytes ?? DEFAULT_READ_MAX_BYTES)) return E.left('EFBIG');
      return E.right(entry.bytes.slice());
    });
  }

  readLink(path: string): TE.TaskEither<FileSystemError, string> {
    return this.#run('readLink', path, () => {
      const resolved = this.#resolve(path, false);
      if (E.isLeft(resolved)) return resolved;
      const entry = this.#entries.get(resolved.right);
      if (entry === undefined) return E.left('ENOENT');
      return entry.kind === 'symlink' ? E.right(entry.target) : E.left('EINVAL');
    });
  }

  realPath(path: string): TE.TaskEither<FileSystemError, string> {
    return this.#run('realPath', path, () => {
      const resolved = this.#resolve(path, true);
      if (E.isLeft(resolved)) return resolved;
      return this.#exists(resolved.right) ? resolved : E.left('ENOENT');
    });
  }

  symlink(target: string, path: string): TE.TaskEither<FileSystemError, void> {
    return this.#run('symlink', path, () => {
      const at = this.#placeOf(path);
      if (E.isLeft(at)) return at;
      if (this.#exists(at.right)) return E.left('EEXIST');
      this.#entries.set(at.right, { kind: 'symlink', target });
      return E.right(undefined);
    });
  }

  makeDirectory(path: string, mode: number): TE.TaskEither<FileSystemError, void> {
    return this.#run('makeDirectory', path, () => this.#makeDirectory(path, mode));
  }

  chmod(path: string, mode: number): TE.TaskEither<FileSystemError, void> {
    return this.#run('chmod', path, () => {
      const resolved = this.#resolve(path, true);
      if (E.isLeft(resolved)) return resolved;
      const entry = this.#entries.get(resolved.right);
      if (entry === undefined || entry.kind === 'symlink') return E.left('ENOENT');
      this.#entries.set(resolved.right, { ...entry, mode });
      return E.right(undefined);
    });
  }

  createTempFile(directory: string, prefix: string, bytes: Uint8Array, mode: number): TE.TaskEither<FileSystemError, string> {
    return this.#run('createTempFile', directory, () => {
      const resolved = this.#resolve(directory, true);
      if (E.isLeft(resolved)) return resolved;
      const entry = this.#entries.get(resolved.right);
      if (!this.#isRoot(resolved.right) && entry?.kind !== 'directory') return E.left(entry === undefined ? 'ENOENT' : 'ENOTDIR');
      let path: string;
      do path = joinPath(this.platform, directory, `.${prefix}.${++this.#tempCounter}.tmp`);
      while (this.#entries.has(this.#key(path)));
      this.#entries.set(joinPath(this.platform, resolved.right, baseNameOf(this.platform, path)), { kind: 'file', bytes: bytes.slice(), mode });
      return E.right(path);
    });
  }

  rename(from: string, to: string): TE.TaskEither<FileSystemError, void> {
    return this.#run('rename', to, () => {
      const source = this.#placeOf(from);
      const destination = this.#placeOf(to);
      if (E.isLeft(source)) return source;
      if (E.isLeft(destination)) return destination;
      const entry = this.#entries.get(source.right);
      if (entry === undefined) return E.left('ENOENT');
      if (source.right === destination.right) return E.right(undefined);
      if (this.#entries.get(destination.right)?.kind === 'directory') return E.left('EISDIR');
      if (entry.kind !== 'directory') {
        this.#entries.delete(source.right);
        this.#entries.set(destination.right, entry);
        return E.right(undefined);
      }
      // A directory moves with everything below it (never into itself).
      const separator = this.platform === 'windows' ? '\\' : '/';
      if (destination.right.startsWith(source.right + separator)) return E.left('EINVAL');
      const moved = this.tree(source.right);
      for (const [path] of moved) this.#entries.delete(path);
      for (const [path, child] of moved) this.#entries.set(destination.right + path.slice(source.right.length), child);
      return E.right(undefined);
    });
  }

  remove(path: string): TE.TaskEither<FileSystemError, void> {
    return this.#run('remove', path, () => {
      const at = this.#placeOf(path);
      if (E.isLeft(at)) return at;
      const entry = this.#entries.get(at.right);
      if (entry === undefined) return E.left('ENOENT');
      if (entry.kind === 'directory') return E.left('EISDIR');
      this.#entries.delete(at.right);
      return E.right(undefined);
    });
  }

  listDirectory(path: string): TE.TaskEither<FileSystemError, ReadonlyArray<string>> {
    return this.#run('listDirectory', path, () => {
      const resolved = this.#resolve(path, true);
      if (E.isLeft(resolved)) return resolved;
      const entry = this.#entries.get(resolved.right);
      if (!this.#isRoot(resolved.right) && entry?.kind !== 'directory') return E.left(entry === undefined ? 'ENOENT' : 'ENOTDIR');
      // Stored paths are normalized: a child is the directory's path, a separator and one segment.
      const separator = this.platform === 'windows' ? '\\' : '/';
      const prefix = resolved.right.endsWith(separator) ? resolved.right : resolved.right + separator;
      const names = [...this.#entries.keys()].filter((p) => p.startsWith(prefix) && p.length > prefix.length && !p.includes(separator, prefix.length)).map((p) => p.slice(prefix.length));
      return E.right(names.sort());
    });
  }

  createDirectory(path: string, mode: number): TE.TaskEither<FileSystemError, void> {
    return this.#run('createDirectory', path, () => {
      const at = this.#placeOf(path);
      if (E.isLeft(at)) return at;
      if (this.#exists(at.right)) return E.left('EEXIST');
      this.#entries.set(at.right, { kind: 'directory', mode });
      return E.right(undefined);
    });
  }

  writeFiles(files: ReadonlyArray<FileToWrite>): TE.TaskEither<FileSystemError, void> {
    return () =>
      Promise.resolve(
        files.reduce<E.Either<FileSystemError, void>>(
          (written, file) => (E.isLeft(written) ? written : E.mapLeft((code: string) => fileSystemError('writeFiles', file.path, code))(this.#create(file.path, file.bytes, file.mode))),
          E.right(undefined),
        ),
      );
  }

  writeFileDurable(file: FileToWrite): TE.TaskEither<FileSystemError, void> {
    return this.#run('writeFileDurable', file.path, () => this.#create(file.path, file.bytes, file.mode));
  }

  copyFile(from: string, to: string, mode: number): TE.TaskEither<FileSystemError, void> {
    return this.#run('copyFile', to, () => {
      const source = this.#regularFile(from);
      return E.isLeft(source) ? source : this.#create(to, source.right.bytes, mode);
    });
  }

  digestFile(path: string): TE.TaskEither<FileSystemError, string> {
    return this.#run('digestFile', path, () => E.map((file: { readonly bytes: Uint8Array }) => sha256Hex(file.bytes))(this.#regularFile(path)));
  }

  publishExclusive(from: string, to: string): TE.TaskEither<FileSystemError, void> {
    return this.#run('publishExclusive', to, () => {
      const source = this.#placeOf(from);
      const destination = this.#placeOf(to);
      if (E.isLeft(source)) return source;
      if (E.isLeft(destination)) return destination;
      const entry = this.#entries.get(source.right);
      if (entry === undefined) return E.left('ENOENT');
      if (entry.kind === 'directory') return E.left('EPERM');
      if (this.#exists(destination.right)) return E.left('EEXIST');
      this.#entries.set(destination.right, entry);
      this.#entries.delete(source.right);
      return E.right(undefined);
    });
  }

  removeFile(path: string): TE.TaskEither<FileSystemError, void> {
    return this.#run('removeFile', path, () => {
      const at = this.#placeOf(path);
      if (E.isLeft(at)) return at.left === 'ENOENT' ? E.right(undefined) : at;
      const entry = this.#entries.get(at.right);
      if (entry?.kind === 'directory') return E.left('EISDIR');
      this.#entries.delete(at.right);
      return E.right(undefined);
    });
  }

  removeTree(path: string): TE.TaskEither<FileSystemError, void> {
    return this.#run('removeTree', path, () => {
      const at = this.#placeOf(path);
      if (E.isLeft(at)) return at.left === 'ENOENT' ? E.right(undefined) : at;
      for (const [key] of this.tree(at.right)) this.#entries.delete(key);
      return E.right(undefined);
    });
  }

  removeEmptyDirectory(path: string): TE.TaskEither<FileSystemError, void> {
    return this.#run('removeEmptyDirectory', path, () => {
      const at = this.#placeOf(path);
      if (E.isLeft(at)) return at.left === 'ENOENT' ? E.right(undefined) : at;
      const entry = this.#entries.get(at.right);
      if (entry === undefined) return E.right(undefined);
      if (entry.kind !== 'directory') return E.left('ENOTDIR');
      if (this.tree(at.right).length > 1) return E.left('ENOTEMPTY');
      this.#entries.delete(at.right);
      return E.right(undefined);
    });
  }

  flush(roots: ReadonlyArray<string>): TE.TaskEither<FileSystemError, void> {
    return this.#run('flush', roots[0] ?? '', () => E.right(undefined));
  }

  digest(bytes: Uint8Array): string {
    return sha256Hex(bytes);
  }

  // ---- internals ----

  #run<A>(operation: FileOperation, path: string, body: () => E.Either<string, A>): TE.TaskEither<FileSystemError, A> {
    return () => Promise.resolve(E.mapLeft((code: string) => fileSystemError(operation, path, code))(body()));
  }

  // Path arithmetic is pure and the same few paths come back all the time: its results are kept.
  readonly #normalized = new Map<string, string>();
  readonly #parents = new Map<string, string>();
  readonly #names = new Map<string, string>();

  #memo(cache: Map<string, string>, path: string, compute: (path: string) => string): string {
    let known = cache.get(path);
    if (known === undefined) {
      if (cache.size > 50_000) cache.clear();
      known = compute(path);
      cache.set(path, known);
    }
    return known;
  }

  #key(path: string): string {
    return this.#memo(this.#normalized, path, (p) => normalizePath(this.platform, p));
  }

  #parent(path: string): string {
    return this.#memo(this.#parents, path, (p) => parentOf(this.platform, p));
  }

  #name(path: string): string {
    return this.#memo(this.#names, path, (p) => baseNameOf(this.platform, p));
  }

  #isRoot(path: string): boolean {
    return this.#parent(path) === path;
  }

  #exists(path: string): boolean {
    return this.#isRoot(path) || this.#entries.has(path);
  }

  #statOf(path: string, follow: boolean): E.Either<string, FileStat | null> {
    const resolved = this.#resolve(path, follow);
    if (E.isLeft(resolved)) return resolved.left === 'ENOENT' ? E.right(null) : resolved;
    if (this.#isRoot(resolved.right)) return E.right({ kind: 'directory', mode: 0o755 });
    const entry = this.#entries.get(resolved.right);
    if (entry === undefined) return E.right(null);
    return E.right({ kind: entry.kind, mode: entry.kind === 'symlink' ? 0o777 : entry.mode });
  }

  /** The stored path of `path`'s own entry: its directory resolved (links followed), its name kept. */
  #placeOf(path: string, budget: LinkBudget = { hops: 0 }): Resolved {
    const key = this.#key(path);
    if (this.#isRoot(key)) return E.right(key);
    const parent = this.#resolve(this.#parent(key), true, budget);
    if (E.isLeft(parent)) return parent;
    const entry = this.#entries.get(parent.right);
    if (!this.#isRoot(parent.right) && entry === undefined) return E.left('ENOENT');
    if (!this.#isRoot(parent.right) && entry?.kind !== 'directory') return E.left('ENOTDIR');
    return E.right(parent.right === this.#parent(key) ? key : joinPath(this.platform, parent.right, this.#name(key)));
  }

  /** The stored path `path` resolves to, following links in its directories and, if `followLast`, its last one. */
  #resolve(path: string, followLast: boolean, budget: LinkBudget = { hops: 0 }): Resolved {
    if (!isAbsolutePath(this.platform, path)) return E.left('EINVAL');
    const place = this.#placeOf(path, budget);
    if (E.isLeft(place) || !followLast) return place;
    const entry = this.#entries.get(place.right);
    if (entry?.kind !== 'symlink') return place;
    if (++budget.hops > MAX_LINKS) return E.left('ELOOP');
    return this.#resolve(resolveLinkTarget(this.platform, place.right, entry.target), true, budget);
  }

  /** Creates a new file exclusively, never through a link (`EEXIST` when anything is at `path`). */
  #create(path: string, bytes: Uint8Array, mode: number): E.Either<string, void> {
    const at = this.#placeOf(path);
    if (E.isLeft(at)) return at;
    if (this.#exists(at.right)) return E.left('EEXIST');
    this.#entries.set(at.right, { kind: 'file', bytes: bytes.slice(), mode });
    return E.right(undefined);
  }

  /** The regular file at `path`, never through a final link (`ELOOP`). */
  #regularFile(path: string): E.Either<string, { readonly bytes: Uint8Array }> {
    const at = this.#resolve(path, false);
    if (E.isLeft(at)) return at;
    const entry = this.#entries.get(at.right);
    if (entry === undefined) return E.left('ENOENT');
    if (entry.kind === 'symlink') return E.left('ELOOP');
    if (entry.kind === 'directory') return E.left('EISDIR');
    return E.right(entry);
  }

  #makeDirectory(path: string, mode: number): E.Either<string, void> {
    const key = this.#key(path);
    if (this.#isRoot(key)) return E.right(undefined);
    const existing = this.#resolve(key, true);
    if (E.isRight(existing) && this.#exists(existing.right)) {
      return this.#isRoot(existing.right) || this.#entries.get(existing.right)?.kind === 'directory' ? E.right(undefined) : E.left('EEXIST');
    }
    const parent = this.#makeDirectory(parentOf(this.platform, key), mode);
    if (E.isLeft(parent)) return parent.left === 'EEXIST' ? E.left('ENOTDIR') : parent;
    const at = this.#placeOf(key);
    if (E.isLeft(at)) return at;
    if (this.#entries.get(at.right)?.kind === 'symlink') return E.left('EEXIST');
    this.#entries.set(at.right, { kind: 'directory', mode });
    return E.right(undefined);
  }
}
