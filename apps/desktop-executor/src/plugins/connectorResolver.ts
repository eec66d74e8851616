/**
 * Resolves a plugin connector for runtime authorization recovery directly from its identity
 * (`pluginKey` + `connectorSlug`): the executor's own sync manifest says which version of exactly that
 * plugin is installed, and its package's manifest declares the connector. Installations are never
 * enumerated and a missing identity is never guessed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { decodeLocalAuthConnectors, type AuthTarget, type ConnectorIdentity, type ConnectorNotFound } from '@wework/local-auth';
import { parsePluginKey } from '@wework/plugin-inventory';
import { cacheDirectoryOf, decodeManifest, type Homes } from '@wework/sync-transaction';

/** The connector of an installed plugin, by identity. */
export function resolveInstalledConnector(homes: Homes): (identity: ConnectorIdentity) => Promise<E.Either<ConnectorNotFound, AuthTarget>> {
  return async ({ pluginKey, connectorSlug }) => {
    const notFound = (why: string): E.Either<ConnectorNotFound, AuthTarget> =>
      E.left({ _tag: 'ConnectorNotFound', pluginKey, connectorSlug, message: `The connector "${connectorSlug}" of ${pluginKey} is not installed on this device (${why}).` });
    const ref = parsePluginKey(pluginKey);
    if (E.isLeft(ref)) return notFound('not a plugin key');
    const text = await readFile(join(homes.stateDirectory, 'manifest.json'), 'utf8').catch(() => null);
    const manifest = text === null ? null : decodeManifest(text);
    const record = manifest === null || E.isLeft(manifest) ? undefined : manifest.right.plugins[pluginKey];
    if (record === undefined || record.status !== 'installed' || record.version === null) return notFound('no installation');
    const pluginRoot = join(homes.codexHome, cacheDirectoryOf(ref.right, record.version));
    let declared: unknown;
    try {
      declared = JSON.parse(await readFile(join(pluginRoot, '.codex-plugin', 'plugin.json'), 'utf8'));
    } catch {
      return notFound('unreadable plugin manifest');
    }
    const connectors = decodeLocalAuthConnectors(declared);
    const connector = E.isRight(connectors) ? connectors.right.find((candidate) => candidate.slug === connectorSlug) : undefined;
    return connector === undefined ? notFound('no such connector') : E.right({ pluginKey, pluginRoot, connector });
  };
}
