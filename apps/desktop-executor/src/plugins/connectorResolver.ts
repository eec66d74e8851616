/**
 * Resolves a plugin connector for runtime authorization recovery directly from its identity
 * (`pluginKey` + `connectorSlug`): the executor's own sync manifest says which version of exactly that
 * plugin is installed, and its package's manifest declares the connector. Installations are never
 * enumerated and a missing identity is never guessed.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { decodeLocalAuthConnectors, type AuthTarget, type ConnectorIdentity, type ConnectorNotFound } from '@wework/local-auth';
import { parsePluginKey } from '@wework/plugin-inventory';
import { cacheDirectoryOf, readManifest, type Homes } from '@wework/sync-transaction';
import { readPluginManifest, untrustedReads } from './UntrustedJson.js';

/** The connector of an installed plugin, by identity. */
export function resolveInstalledConnector(homes: Homes): (identity: ConnectorIdentity) => Promise<E.Either<ConnectorNotFound, AuthTarget>> {
  return async ({ pluginKey, connectorSlug }) => {
    const notFound = (why: string): E.Either<ConnectorNotFound, AuthTarget> =>
      E.left({ _tag: 'ConnectorNotFound', pluginKey, connectorSlug, message: `The connector "${connectorSlug}" of ${pluginKey} is not installed on this device (${why}).` });
    const ref = parsePluginKey(pluginKey);
    if (E.isLeft(ref)) return notFound('not a plugin key');
    const manifest = await readManifest(untrustedReads, homes)();
    const record = E.isLeft(manifest) ? undefined : manifest.right.plugins[pluginKey];
    if (record === undefined || record.status !== 'installed' || record.version === null) return notFound('no installation');
    const pluginRoot = join(homes.codexHome, cacheDirectoryOf(ref.right, record.version));
    const declared = await readPluginManifest(pluginRoot);
    if (E.isLeft(declared)) return notFound('unreadable plugin manifest');
    const connectors = decodeLocalAuthConnectors(declared.right);
    const connector = E.isRight(connectors) ? connectors.right.find((candidate) => candidate.slug === connectorSlug) : undefined;
    return connector === undefined ? notFound('no such connector') : E.right({ pluginKey, pluginRoot, connector });
  };
}
