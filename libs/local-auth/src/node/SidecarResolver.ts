/**
 * Bundled tools: sidecars shipped with the desktop client, looked up by name in one directory.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { SidecarNotFound } from '../ManagedTool.js';

/** Resolves a sidecar by name to its executable's absolute path. */
export type SidecarResolver = (name: string) => Promise<E.Either<SidecarNotFound, string>>;

/**
 * Looks sidecars up in `directory` (`<name>`, or `<name>.exe` on Windows). Names are the manifest's
 * validated slugs, so they cannot leave the directory.
 *
 * @example
 * ```ts
 * const sidecars = sidecarDirectory(join(resourcesPath, 'sidecars'));
 * await sidecars('dws'); // Right('<resourcesPath>/sidecars/dws')
 * ```
 */
export function sidecarDirectory(directory: string, platform: NodeJS.Platform = process.platform): SidecarResolver {
  return async (name) => {
    const missing = (): E.Either<SidecarNotFound, string> =>
      E.left({ _tag: 'SidecarNotFound', tool: name, message: `The bundled tool "${name}" is not shipped with this client.` });
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) || name.includes('..')) return missing();
    const path = join(directory, platform === 'win32' ? `${name}.exe` : name);
    try {
      return (await stat(path)).isFile() ? E.right(path) : missing();
    } catch {
      return missing();
    }
  };
}
