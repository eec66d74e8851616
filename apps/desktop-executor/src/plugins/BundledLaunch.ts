/**
 * Where the desktop app's bundled plugin packages are, as the launch says: the `--bundled-plugin DIR`
 * options and `WEWORK_BUNDLED_PLUGINS` (directories separated by the platform's path delimiter; empty
 * parts are ignored). Each directory is decoded later, when it is read (`BundledPlugins.ts`): a bad
 * entry is skipped, never fatal.
 *
 * `WEWORK_TEST_BUNDLED_FAULT` is a fault hook for crash and failure tests of the upgrade, run on the
 * published caches before the commit mark: `fail-once` refuses the first upgrade (the transaction
 * rolls back), `pause:<file>` writes `<file>` and never returns (a test kills the executor there).
 * Any other value refuses the start, so a typo never silently changes an executor.
 */
import { writeFile } from 'node:fs/promises';
import { delimiter, isAbsolute } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { BeforeCommit } from '@wework/sync-transaction';

/** The environment variable listing bundled package directories. */
export const BUNDLED_PLUGINS_ENV = 'WEWORK_BUNDLED_PLUGINS';
/** The environment variable of the upgrade fault hook (tests). */
export const BUNDLED_FAULT_ENV = 'WEWORK_TEST_BUNDLED_FAULT';

/** The bundled package directories: the options' first, then the environment's. Pure. */
export function bundledDirectories(fromOptions: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>, pathDelimiter: string = delimiter): ReadonlyArray<string> {
  const fromEnv = (env[BUNDLED_PLUGINS_ENV] ?? '').split(pathDelimiter).filter((part) => part !== '');
  return [...fromOptions, ...fromEnv];
}

/** The fault hook the environment asks for (`null`: none), or a sentence saying why the value is refused (never echoing it). */
export function bundledFaultFromEnv(env: Readonly<Record<string, string | undefined>>): E.Either<string, BeforeCommit | null> {
  const raw = env[BUNDLED_FAULT_ENV];
  if (raw === undefined || raw === '') return E.right(null);
  if (raw === 'fail-once') {
    let failed = false;
    return E.right(async () => {
      if (failed) return E.right(undefined);
      failed = true;
      return E.left('injected fault');
    });
  }
  const marker = raw.startsWith('pause:') ? raw.slice('pause:'.length) : '';
  if (isAbsolute(marker)) {
    return E.right(async () => {
      await writeFile(marker, 'paused before the commit mark\n');
      return new Promise<never>(() => undefined);
    });
  }
  return E.left(`${BUNDLED_FAULT_ENV} must be fail-once or pause:<absolute file>`);
}
