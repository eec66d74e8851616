/**
 * Preparing config.toml of the Wework Codex home before the app-server starts: create it when
 * missing, normalize it when present, leave it untouched when it is not valid TOML.
 *
 * A symbolic link at config.toml is written through (its target is replaced atomically, the link is
 * kept), as Codex's own `config/batchWrite` does; a dangling link is reported and left alone. The
 * program is a pure description run through a {@link FileSystemPort}.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { PRIVATE_FILE_MODE, writeFileAtomic, type FileSystemError, type FileSystemPort } from '@wework/ports';
import { writeDestinationOf } from './AtomicWrite.js';
import type { ConfigError } from '@wework/config-toml';
import { freshConfigText, normalizeConfig, type ConfigChange, type ConfigWarning } from './config/index.js';
import type { CodexHomeLayout } from './HomeLayout.js';
import { textOf, utf8 } from './internal/Bytes.js';

/** What {@link prepareConfig} did. */
export type ConfigPreparation =
  /** config.toml was missing and was created with the fresh text, mode 0600. */
  | { readonly _tag: 'Created'; readonly path: string }
  /** config.toml was already normalized; not written. */
  | { readonly _tag: 'Unchanged'; readonly path: string; readonly warnings: ReadonlyArray<ConfigWarning> }
  /** config.toml was rewritten atomically with its mode kept; `path` is the file written (a link's target). */
  | {
      readonly _tag: 'Normalized';
      readonly path: string;
      readonly changes: ReadonlyArray<ConfigChange>;
      readonly warnings: ReadonlyArray<ConfigWarning>;
    };

/** config.toml is a symbolic link whose target does not exist; nothing was written. */
export interface ConfigLinkBroken {
  readonly _tag: 'ConfigLinkBroken';
  readonly path: string;
  readonly target: string;
}

/** config.toml is a directory or another non-file; nothing was written. */
export interface ConfigNotAFile {
  readonly _tag: 'ConfigNotAFile';
  readonly path: string;
}

/** config.toml is not UTF-8 text; nothing was written. */
export interface ConfigNotText {
  readonly _tag: 'ConfigNotText';
  readonly path: string;
}

/** Why config.toml was left as it is. */
export type ConfigPreparationError = ConfigError | ConfigLinkBroken | ConfigNotAFile | ConfigNotText | FileSystemError;

/**
 * Creates a missing config.toml (fresh text, 0600), or normalizes an existing one and writes it
 * atomically (temporary file in the same directory, fsync, rename) only when the text changes,
 * keeping its permission bits. A malformed file is never written; its `MalformedConfig` says where
 * it is broken. Idempotent: a second run returns `Unchanged`.
 */
export const prepareConfig =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<ConfigPreparationError, ConfigPreparation> =>
  async () => {
    const destination = await writeDestinationOf(fs, layout.configFile)();
    if (E.isLeft(destination)) return destination;
    const where = destination.right;
    if (where._tag === 'DanglingLink') return E.left({ _tag: 'ConfigLinkBroken', path: layout.configFile, target: where.target });
    if (where._tag === 'Absent') {
      const created = await writeFileAtomic(fs, layout.configFile, utf8(freshConfigText()), PRIVATE_FILE_MODE)();
      return E.isLeft(created) ? created : E.right({ _tag: 'Created', path: layout.configFile });
    }
    if (where.stat.kind !== 'file') return E.left({ _tag: 'ConfigNotAFile', path: layout.configFile });
    const bytes = await fs.readFile(where.path, { followSymlink: true })();
    if (E.isLeft(bytes)) return bytes;
    const text = textOf(bytes.right, true);
    if (text === null) return E.left({ _tag: 'ConfigNotText', path: where.path });
    const normalized = normalizeConfig(text);
    if (E.isLeft(normalized)) return normalized;
    const { changes, warnings } = normalized.right;
    if (changes.length === 0) return E.right({ _tag: 'Unchanged', path: where.path, warnings });
    const written = await writeFileAtomic(fs, where.path, utf8(normalized.right.text), where.stat.mode & 0o777)();
    return E.isLeft(written) ? written : E.right({ _tag: 'Normalized', path: where.path, changes, warnings });
  };
