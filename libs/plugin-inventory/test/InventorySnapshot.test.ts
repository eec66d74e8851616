import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot, snapshotInventory, type PluginRef } from '../src/index.js';
import { DROPPED_FIELDS, projectPlugin, type InventoryPlugin } from '../src/InventorySnapshot.js';
import { inventoryPluginArbitrary, makeFakeClock } from '../src/testing.js';

const fieldNames = (value: unknown): ReadonlyArray<string> => {
  if (Array.isArray(value)) return value.flatMap(fieldNames);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, inner]) => [key, ...fieldNames(inner)]);
  return [];
};

const miniApp: InventoryPlugin = {
  ref: { name: 'weibo-miniapp-h5-develop-agent', marketplace: 'wegent' } as PluginRef,
  installed: true,
  enabled: true,
  version: '1.2.0',
  description: 'A very long description. '.repeat(200),
  installationId: 'inst-42',
  interface: {
    displayName: 'Mini Program',
    shortDescription: 'Build H5 mini programs',
    longDescription: 'Long. '.repeat(500),
    developerName: 'Wegent',
    category: 'Apps',
    capabilities: ['Write'],
    defaultPrompt: ['Create a mini program for my shop'],
    logo: '/cache/logo.png',
    logoUrl: 'https://example.test/logo.png',
    screenshots: ['/cache/shot1.png'],
    screenshotUrls: ['https://example.test/shot1.png'],
    websiteUrl: 'https://example.test',
  },
};

describe('durable snapshots', () => {
  it('keep presentation and recovery fields, default prompts included', () => {
    expect(projectPlugin(miniApp)).toEqual({
      ref: miniApp.ref,
      installed: true,
      enabled: true,
      version: '1.2.0',
      displayName: 'Mini Program',
      shortDescription: 'Build H5 mini programs',
      developerName: 'Wegent',
      category: 'Apps',
      capabilities: ['Write'],
      brandColor: null,
      composerIcon: null,
      logo: '/cache/logo.png',
      defaultPrompt: ['Create a mini program for my shop'],
      installationId: 'inst-42',
    });
  });

  it('never keep a dropped field, and keep every default prompt (property)', () => {
    fc.assert(
      fc.property(fc.array(inventoryPluginArbitrary, { maxLength: 5 }), (plugins) => {
        const stored = JSON.parse(JSON.stringify(encodeSnapshot(snapshotInventory(plugins, 1)))) as unknown;
        for (const dropped of DROPPED_FIELDS) expect(fieldNames(stored)).not.toContain(dropped);
        const decoded = decodeSnapshot(stored);
        if (E.isLeft(decoded)) throw new Error(decoded.left.message);
        expect(decoded.right.droppedPlugins).toBe(0);
        expect(decoded.right.snapshot.plugins).toEqual(plugins.map(projectPlugin));
        decoded.right.snapshot.plugins.forEach((plugin, index) => {
          expect(plugin.defaultPrompt).toEqual(plugins[index]?.interface?.defaultPrompt ?? null);
        });
      }),
    );
  });

  it('decoding strips dropped fields that were stored anyway', () => {
    const stored = encodeSnapshot(snapshotInventory([miniApp], 5)) as { plugins: Record<string, unknown>[] };
    const tampered = { ...stored, plugins: stored.plugins.map((plugin) => ({ ...plugin, longDescription: 'x', screenshots: ['y'] })) };
    const decoded = decodeSnapshot(tampered);
    if (E.isLeft(decoded)) throw new Error(decoded.left.message);
    for (const dropped of DROPPED_FIELDS) expect(fieldNames(decoded.right.snapshot)).not.toContain(dropped);
  });

  it('decoding never throws on arbitrary JSON or values', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => void decodeSnapshot(value)));
    fc.assert(fc.property(fc.anything(), (value) => void decodeSnapshot(value)));
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 5 }), fc.integer(), (plugins, savedAt) => {
        const decoded = decodeSnapshot({ version: 1, savedAt, plugins });
        expect(E.isRight(decoded) && decoded.right.snapshot.plugins.length + decoded.right.droppedPlugins).toBe(plugins.length);
      }),
    );
  });

  it('rejects a wrong envelope and leaves out damaged plugins', () => {
    expect(E.isLeft(decodeSnapshot({ version: 2, savedAt: 1, plugins: [] }))).toBe(true);
    expect(E.isLeft(decodeSnapshot(null))).toBe(true);
    const clock = makeFakeClock();
    const good = encodeSnapshot(snapshotInventory([miniApp], clock.now())) as { plugins: unknown[] };
    const decoded = decodeSnapshot({ ...good, plugins: [...good.plugins, { ref: 'plugin://bad name@x' }] });
    expect(E.isRight(decoded) && decoded.right.droppedPlugins).toBe(1);
    expect(E.isRight(decoded) && decoded.right.snapshot.savedAt).toBe(clock.now());
  });
});
