import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCodexVersion, describeCodexVersionCheck, SUPPORTED_CODEX_VERSIONS } from '../src/index.js';
import { codexVersionOf, compareCodexVersions } from '../src/CodexVersion.js';

const version = fc.tuple(fc.nat({ max: 999 }), fc.nat({ max: 999 }), fc.nat({ max: 999 })).map(([a, b, c]) => `${a}.${b}.${c}`);

describe('codexVersionOf', () => {
  it('reads the version after the originator, whatever follows', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,20}$/), version, fc.string(), (originator, v, rest) => {
        expect(codexVersionOf(`${originator}/${v} ${rest}`)).toBe(v);
      }),
    );
    expect(codexVersionOf('wework_app_server_client/0.171.0-alpha.2 (Debian; x86_64)')).toBe('0.171.0-alpha.2');
  });

  it('is null for a user agent without one, and never throws', () => {
    for (const agent of ['', 'codex', 'codex/', 'codex/latest (Linux)', '/0.171.0', 'codex/0.171 (Linux)']) expect(codexVersionOf(agent), agent).toBeNull();
    fc.assert(fc.property(fc.string(), (agent) => void codexVersionOf(agent)));
  });
});

describe('compareCodexVersions', () => {
  it('orders numerically, a prerelease below its release, and is antisymmetric', () => {
    expect(compareCodexVersions('0.171.0', '0.99.9')).toBe(1);
    expect(compareCodexVersions('0.171.0-alpha.1', '0.171.0')).toBe(-1);
    expect(compareCodexVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareCodexVersions('x', '1.0.0')).toBeNaN();
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(compareCodexVersions(a, b)).toBe(-compareCodexVersions(b, a) || 0);
      }),
    );
  });
});

describe('checkCodexVersion', () => {
  it('supports the pinned Codex and its patch releases, and no other', () => {
    const pinned = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@openai/codex'] ?? 'none';
    expect(checkCodexVersion(`wework_app_server_client/${pinned} (Linux; x86_64)`)).toEqual({ _tag: 'Supported', version: pinned });
    expect(checkCodexVersion('x/0.171.9 (Linux)')).toMatchObject({ _tag: 'Supported' });
    expect(checkCodexVersion('x/0.169.0 (Linux)')).toEqual({ _tag: 'Unsupported', version: '0.169.0', supported: SUPPORTED_CODEX_VERSIONS });
    expect(checkCodexVersion('x/0.172.0 (Linux)')).toMatchObject({ _tag: 'Unsupported' });
    expect(checkCodexVersion('x/0.171.0-alpha.1 (Linux)')).toMatchObject({ _tag: 'Unsupported' });
    expect(checkCodexVersion('garbage')).toEqual({ _tag: 'Unknown' });
    expect(describeCodexVersionCheck(checkCodexVersion('x/0.169.0 (Linux)'))).toBe('Codex 0.169.0 is outside the supported versions (0.171.0 up to 0.172.0, not included)');
  });
});
