/**
 * Laws of the pure start-up directory recovery planner: it never names a destination outside the
 * current homes and the package store (historical paths are hints), never rebuilds a tombstone, asks
 * for no package when nothing changed, and recovering twice decides the same as once.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideDirectoryRecovery, rebuildEnablement, type CacheState, type DirectoryObservation } from '../src/DirectoryRecovery.js';
import { runtimeHomes, type Homes } from '../src/Layout.js';
import type { ManifestRecord } from '../src/Manifest.js';

const plugin = { name: 'forms', marketplace: 'wework' };

const homesArbitrary: fc.Arbitrary<Homes> = fc.record({
  root: fc.constantFrom('/new', '/old', '/a/b'),
  claude: fc.boolean(),
  target: fc.constantFrom('dual' as const, 'codex' as const),
  store: fc.boolean(),
}).map(({ root, claude, target, store }) => ({
  codexHome: `${root}/codex`,
  claudeHome: claude ? `${root}/claude` : null,
  stateDirectory: `${root}/state`,
  runtimeTarget: target,
  ...(store ? { packageStore: `${root}/state/packages` } : {}),
}));

const recordArbitrary: fc.Arbitrary<ManifestRecord> = fc.record(
  {
    status: fc.constantFrom('installed' as const, 'uninstalled' as const),
    version: fc.option(fc.constantFrom('1.0.0', '2.0.0'), { freq: 5 }),
    digest: fc.option(fc.constantFrom('d1', 'd2'), { freq: 5 }),
    caches: fc.constant<ManifestRecord['caches']>([{ home: 'codex', path: 'plugins/cache/wework/forms/1.0.0' }]),
    updatedAt: fc.constant<string>('t'),
    installedFor: fc.option(fc.record({ codexHome: fc.constantFrom('/new/codex', '/old/codex', '/elsewhere/codex'), claudeHome: fc.option(fc.constantFrom('/new/claude', '/old/claude')) })),
    package: fc.option(fc.record({ version: fc.constantFrom('1.0.0', '2.0.0'), digest: fc.constantFrom('d1', 'd2'), path: fc.constant('wework/forms/1.0.0') })),
    enabled: fc.record({ codex: fc.option(fc.boolean()) }),
  },
  { requiredKeys: ['status', 'version', 'digest', 'caches', 'updatedAt'] },
) as unknown as fc.Arbitrary<ManifestRecord>;

const observationArbitrary = (homes: Homes): fc.Arbitrary<DirectoryObservation> =>
  fc.array(fc.constantFrom<CacheState>('complete', 'incomplete', 'missing'), { minLength: runtimeHomes(homes).length, maxLength: runtimeHomes(homes).length }).map((states) => ({
    caches: runtimeHomes(homes).map((home, i) => ({ home, state: states[i] as CacheState })),
  }));

const caseArbitrary = homesArbitrary.chain((homes) => fc.tuple(fc.constant(homes), recordArbitrary, observationArbitrary(homes)));

const inside = (homes: Homes, path: string): boolean =>
  [homes.codexHome, homes.claudeHome, homes.packageStore].some((root) => root != null && path.startsWith(`${root}/`));

describe('the start-up directory recovery planner', () => {
  it('property: every destination and package origin of a rebuild is inside the current homes or the package store', () => {
    fc.assert(
      fc.property(caseArbitrary, ([homes, record, observed]) => {
        const decision = decideDirectoryRecovery(homes, plugin, record, observed);
        if (decision._tag !== 'Rebuild') return;
        for (const path of [...decision.destinations, decision.origin.path]) expect(inside(homes, path), path).toBe(true);
        // The historical homes are never a destination unless they are the current ones.
        const hint = record.installedFor?.codexHome;
        if (hint !== undefined && hint !== homes.codexHome) for (const path of decision.destinations) expect(path.startsWith(`${hint}/`)).toBe(false);
      }),
    );
  });

  it('property: a tombstone is never rebuilt, whatever caches or packages are retained', () => {
    fc.assert(
      fc.property(caseArbitrary, ([homes, record, observed]) => {
        expect(decideDirectoryRecovery(homes, plugin, { ...record, status: 'uninstalled' }, observed)).toEqual({ _tag: 'Tombstone' });
      }),
    );
  });

  it('property: published for the current homes with complete caches is Unchanged (no package asked for)', () => {
    fc.assert(
      fc.property(caseArbitrary, ([homes, record, observed]) => {
        const current = { codexHome: homes.codexHome, claudeHome: runtimeHomes(homes).includes('claude') ? homes.claudeHome : null };
        const installed: ManifestRecord = { ...record, status: 'installed', version: '1.0.0', digest: 'd1', installedFor: current };
        const complete = { caches: observed.caches.map((c) => ({ ...c, state: 'complete' as const })) };
        expect(decideDirectoryRecovery(homes, plugin, installed, complete)).toEqual({ _tag: 'Unchanged' });
      }),
    );
  });

  it('property: idempotent — after a rebuild is carried out (the record republished for these homes, caches complete), a second check is Unchanged', () => {
    fc.assert(
      fc.property(caseArbitrary, ([homes, record, observed]) => {
        const first = decideDirectoryRecovery(homes, plugin, record, observed);
        if (first._tag !== 'Rebuild') return;
        // What the rebuild transaction records and publishes.
        const after: ManifestRecord = {
          ...record,
          installedFor: { codexHome: homes.codexHome, claudeHome: runtimeHomes(homes).includes('claude') ? homes.claudeHome : null },
          ...(homes.packageStore === undefined ? {} : { package: { version: first.version, digest: first.digest, path: 'wework/forms/x' } }),
        };
        const complete = { caches: observed.caches.map((c) => ({ ...c, state: 'complete' as const })) };
        expect(decideDirectoryRecovery(homes, plugin, after, complete)).toEqual({ _tag: 'Unchanged' });
      }),
    );
  });

  it('a moved record needs its verified package: without a package record matching version and digest it is RepairRequired', () => {
    const homes: Homes = { codexHome: '/new/codex', claudeHome: null, stateDirectory: '/new/state', packageStore: '/new/state/packages' };
    const base: ManifestRecord = { status: 'installed', version: '1.0.0', digest: 'd1', caches: [], updatedAt: 't', installedFor: { codexHome: '/old/codex', claudeHome: null } };
    const complete = { caches: [{ home: 'codex' as const, state: 'complete' as const }] };
    expect(decideDirectoryRecovery(homes, plugin, { ...base, package: { version: '1.0.0', digest: 'other', path: 'x' } }, complete)).toEqual({ _tag: 'RepairRequired', reason: 'PackageInvalid' });
    expect(decideDirectoryRecovery(homes, plugin, { ...base, package: { version: '1.0.0', digest: 'd1', path: 'x' } }, complete)).toMatchObject({
      _tag: 'Rebuild',
      reason: 'HomeMoved',
      origin: { _tag: 'Retained', path: '/new/state/packages/wework/forms/1.0.0' },
    });
    // A version 1 record (no homes, no package record): its Codex cache is the package, verified against the digest.
    const { installedFor: _hint, ...v1 } = base;
    expect(decideDirectoryRecovery(homes, plugin, v1, complete)).toMatchObject({ _tag: 'Rebuild', reason: 'HomeUnknown', origin: { _tag: 'Cache', path: '/new/codex/plugins/cache/wework/forms/1.0.0' } });
    expect(decideDirectoryRecovery(homes, plugin, v1, { caches: [{ home: 'codex', state: 'missing' }] })).toEqual({ _tag: 'RepairRequired', reason: 'PackageMissing' });
  });

  it('a rebuild keeps a recorded disabled state when config.toml lost the entry, and otherwise preserves config.toml', () => {
    const record: ManifestRecord = { status: 'installed', version: '1', digest: 'd', caches: [], updatedAt: 't', enabled: { codex: false } };
    expect(rebuildEnablement(record, null)).toBe(false);
    expect(rebuildEnablement(record, true)).toBe('preserve');
    expect(rebuildEnablement({ ...record, enabled: { codex: true } }, null)).toBe('preserve');
  });
});
