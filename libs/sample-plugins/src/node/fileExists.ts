/**
 * The one file-system read of this package: whether a file exists (a built plugin executable, a
 * connector's login file). Node-only, kept under `src/node/`.
 */
import { existsSync } from 'node:fs';

/**
 * Whether `path` exists.
 *
 * @example
 * ```ts
 * fileExists('/path/to/dist/bin/forms-plugin.js'); // true once built
 * ```
 */
export function fileExists(path: string): boolean {
  return existsSync(path);
}
