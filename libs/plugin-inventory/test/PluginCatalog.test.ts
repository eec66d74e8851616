import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogByteCounts, projectCatalogPlugin, type PluginRef } from '../src/index.js';
import { CATALOG_DROPPED_FIELDS, type CatalogSource } from '../src/PluginCatalog.js';
import { pluginRefArbitrary } from '../src/testing.js';

const fieldNames = (value: unknown): ReadonlyArray<string> => {
  if (Array.isArray(value)) return value.flatMap(fieldNames);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, inner]) => [key, ...fieldNames(inner)]);
  return [];
};

const CANARY = 'DROPPED-CANARY';
const nullable = <A>(arb: fc.Arbitrary<A>): fc.Arbitrary<A | null> => fc.option(arb, { nil: null });
/** A kept text: never contains the canary (so a canary in the output can only come from a dropped field). */
const keptText = fc.string({ maxLength: 12 }).filter((text) => !text.includes(CANARY));
const droppedText = fc.string({ maxLength: 8 }).map((text) => `${CANARY}${text}`);

/** Codex's plugin summary with every field it has, dropped ones carrying the canary, plus unknown extra fields. */
const sourceArbitrary: fc.Arbitrary<CatalogSource & Record<string, unknown>> = fc.record({
  id: keptText,
  name: keptText,
  version: nullable(keptText),
  localVersion: nullable(keptText),
  installed: fc.boolean(),
  enabled: fc.boolean(),
  installPolicy: nullable(fc.constantFrom('AVAILABLE', 'INSTALLED_BY_DEFAULT', 'NOT_AVAILABLE')),
  authPolicy: nullable(fc.constantFrom('ON_INSTALL', 'ON_USE')),
  availability: nullable(fc.constantFrom('AVAILABLE', 'DISABLED_BY_ADMIN')),
  keywords: fc.array(droppedText, { maxLength: 3 }),
  source: fc.record({ type: fc.constant('local'), path: droppedText }),
  shareContext: fc.constant(null),
  description: droppedText,
  extraField: droppedText,
  interface: nullable(
    fc.record({
      displayName: nullable(keptText),
      shortDescription: nullable(keptText),
      longDescription: nullable(droppedText),
      category: nullable(keptText),
      defaultPrompt: nullable(fc.array(keptText, { maxLength: 3 })),
      websiteUrl: nullable(droppedText),
      privacyPolicyUrl: nullable(droppedText),
      termsOfServiceUrl: nullable(droppedText),
      logo: nullable(droppedText),
      logoUrl: nullable(droppedText),
      composerIconUrl: nullable(droppedText),
      screenshots: fc.array(droppedText, { maxLength: 3 }),
      screenshotUrls: fc.array(droppedText, { maxLength: 3 }),
    }),
  ),
});

describe('projectCatalogPlugin', () => {
  it('never lets a dropped field (or any field it does not know) survive, by name or by content', () => {
    fc.assert(
      fc.property(pluginRefArbitrary, sourceArbitrary, (ref, source) => {
        const projected = projectCatalogPlugin(ref, source);
        for (const field of CATALOG_DROPPED_FIELDS) expect(fieldNames(projected)).not.toContain(field);
        expect(fieldNames(projected)).not.toContain('extraField');
        expect(JSON.stringify(projected)).not.toContain(CANARY);
      }),
    );
  });

  it('keeps identity, state, short presentation and the default prompts', () => {
    fc.assert(
      fc.property(pluginRefArbitrary, sourceArbitrary, (ref, source) => {
        const projected = projectCatalogPlugin(ref, source);
        expect(projected.pluginId).toBe(`${ref.name}@${ref.marketplace}`);
        expect([projected.name, projected.marketplace]).toEqual([ref.name, ref.marketplace]);
        expect([projected.installed, projected.enabled]).toEqual([source.installed, source.enabled]);
        expect(projected.version).toBe(source.version ?? source.localVersion ?? null);
        expect(projected.shortDescription).toBe(source.interface?.shortDescription ?? null);
        expect(projected.defaultPrompts).toEqual(source.interface?.defaultPrompt ?? []);
      }),
    );
  });

  it('answers a summary of exactly the documented fields', () => {
    const ref: PluginRef = { name: 'hello', marketplace: 'team-tools' };
    expect(Object.keys(projectCatalogPlugin(ref, { name: 'hello', installed: false, enabled: false })).sort()).toEqual(
      ['authPolicy', 'availability', 'category', 'defaultPrompts', 'displayName', 'enabled', 'installPolicy', 'installed', 'marketplace', 'name', 'pluginId', 'shortDescription', 'version'].sort(),
    );
  });
});

describe('catalogByteCounts', () => {
  it('counts UTF-8 bytes of kept and dropped text, never returning text', () => {
    const counts = catalogByteCounts([
      { name: 'a', installed: false, enabled: false, interface: { displayName: 'Hé', shortDescription: 'ab', longDescription: '日本', defaultPrompt: ['xyz', 'q'], screenshotUrls: ['https://s'] } },
      { name: 'b', installed: true, enabled: true },
    ]);
    expect(counts).toEqual({ plugins: 2, displayNameBytes: 3, shortDescriptionBytes: 2, defaultPromptBytes: 4, droppedLongDescriptionBytes: 6, droppedScreenshotBytes: 9 });
    expect(Object.values(counts).every((value) => typeof value === 'number')).toBe(true);
  });
});
