import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeManifest, encodeManifest, migrateManifest, updateRecord, type Manifest, type ManifestRecord } from '../src/Manifest.js';

const plugin = { name: 'forms', marketplace: 'wework' };

/** A version 1 manifest as earlier executors wrote it (two-space JSON, relative cache paths). */
const V1_TEXT = `{
  "version": 1,
  "plugins": {
    "forms@wework": {
      "status": "installed",
      "version": "1.0.0",
      "digest": "3f2a",
      "caches": [
        { "home": "codex", "path": "plugins/cache/wework/forms/1.0.0" },
        { "home": "claude", "path": "plugins/cache/wework/forms/1.0.0" }
      ],
      "updatedAt": "2025-01-01T00:00:00.000Z"
    },
    "notes@wegent": {
      "status": "uninstalled",
      "version": null,
      "digest": null,
      "caches": [{ "home": "codex", "path": "plugins/cache/wegent/notes/2.0.0" }],
      "updatedAt": "2025-01-02T00:00:00.000Z"
    }
  }
}
`;

const recordArbitrary: fc.Arbitrary<ManifestRecord> = fc.record(
  {
    status: fc.constantFrom('installed' as const, 'uninstalled' as const),
    version: fc.option(fc.constantFrom('1.0.0', '2.0.0')),
    digest: fc.option(fc.stringMatching(/^[0-9a-f]{4,8}$/)),
    caches: fc.array(fc.record({ home: fc.constantFrom('codex' as const, 'claude' as const), path: fc.constantFrom('plugins/cache/a/b/1', 'plugins/cache/a/b/2') }), { maxLength: 3 }),
    updatedAt: fc.constant('2025-01-01T00:00:00.000Z'),
    installedFor: fc.option(fc.record({ codexHome: fc.constantFrom('/h/codex', '/old/codex'), claudeHome: fc.option(fc.constant('/h/claude')) })),
    package: fc.option(fc.record({ version: fc.constant('1.0.0'), digest: fc.constant('ab'), path: fc.constant('a/b/1.0.0') })),
    cloudInstallationId: fc.option(fc.uuid()),
    authorizations: fc.array(fc.constantFrom('chat', 'mail'), { maxLength: 2 }),
    components: fc.dictionary(fc.constantFrom('skills', 'apps'), fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }), { maxKeys: 2 }),
  },
  { requiredKeys: ['status', 'version', 'digest', 'caches', 'updatedAt'] },
);

const manifestArbitrary: fc.Arbitrary<Manifest> = fc.record({
  version: fc.constant(2 as const),
  plugins: fc.dictionary(fc.constantFrom('forms@wework', 'notes@wegent', 'x@y'), recordArbitrary, { maxKeys: 3 }),
});

describe('the sync manifest', () => {
  it('reads a version 1 file as earlier executors wrote it and migrates it to version 2, every record kept', () => {
    const decoded = decodeManifest(V1_TEXT);
    if (E.isLeft(decoded)) throw new Error(decoded.left.detail);
    expect(decoded.right.version).toBe(2);
    expect(decoded.right.plugins).toEqual(JSON.parse(V1_TEXT).plugins);
    // Written back, it is a version 2 file that decodes to the same value.
    expect(JSON.parse(encodeManifest(decoded.right)).version).toBe(2);
    expect(decodeManifest(encodeManifest(decoded.right))).toEqual(decoded);
  });

  it('keeps unknown fields of the file and of its records', () => {
    const text = JSON.stringify({ version: 1, written: 'by a later tool', plugins: { 'forms@wework': { ...JSON.parse(V1_TEXT).plugins['forms@wework'], mcp: { servers: ['forms'] }, skills: ['fill'] } } });
    const decoded = decodeManifest(text);
    expect(decoded).toMatchObject({ right: { version: 2, written: 'by a later tool', plugins: { 'forms@wework': { mcp: { servers: ['forms'] }, skills: ['fill'] } } } });
    // A change of the record keeps its unknown fields and its associations.
    if (E.isLeft(decoded)) return;
    const changed = updateRecord(decoded.right, plugin, { status: 'uninstalled', version: null, digest: null, caches: [], updatedAt: 'later' });
    expect(changed.plugins['forms@wework']).toMatchObject({ status: 'uninstalled', mcp: { servers: ['forms'] }, skills: ['fill'] });
  });

  it('refuses other versions and shapes with a typed error naming no value', () => {
    for (const text of ['{"version":3,"plugins":{}}', '{"version":2}', '[]', 'not json', '{"version":2,"plugins":{"a@b":{"status":"gone"}}}']) {
      const decoded = decodeManifest(text);
      expect(E.isLeft(decoded) && decoded.left._tag).toBe('ParseFailed');
    }
  });

  it('property: decode(encode(m)) = m for version 2 manifests', () => {
    fc.assert(
      fc.property(manifestArbitrary, (manifest) => {
        expect(decodeManifest(encodeManifest(manifest))).toEqual(E.right(manifest));
      }),
    );
  });

  it('property: a version 1 manifest migrates to version 2 with the same records, and migrating its output again changes nothing', () => {
    fc.assert(
      fc.property(manifestArbitrary, (manifest) => {
        const v1 = { version: 1 as const, plugins: Object.fromEntries(Object.entries(manifest.plugins).map(([k, r]) => [k, { status: r.status, version: r.version, digest: r.digest, caches: r.caches, updatedAt: r.updatedAt }])) };
        const migrated = decodeManifest(JSON.stringify(v1));
        expect(migrated).toEqual(E.right(migrateManifest(v1)));
        if (E.isRight(migrated)) expect(decodeManifest(encodeManifest(migrated.right))).toEqual(migrated);
      }),
    );
  });

  it('property: never throws on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => void decodeManifest(JSON.stringify(value))));
  });
});
