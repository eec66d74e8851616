import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TomlError } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { malformedConfigFrom, tomlErrorReason, UNKNOWN_TOML_REASON } from '../src/ConfigError.js';

/** Every reason literal smol-toml passes to `TomlError.x(...)`, read from the installed sources. */
function smolTomlReasons(): string[] {
  const dist = dirname(createRequire(import.meta.url).resolve('smol-toml'));
  const reasons = new Set<string>();
  for (const file of readdirSync(dist).filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(join(dist, file), 'utf8');
    for (const call of source.split('TomlError.x(').slice(1)) {
      const args = call.slice(0, call.indexOf(', ctx'));
      for (const literal of args.matchAll(/'([^']*)'|`([^`$]*)`/g)) reasons.add(literal[1] ?? literal[2] ?? '');
    }
  }
  return [...reasons].filter((reason) => reason !== '').sort(); // '' comes from a Temporal error path smol-toml does not use here
}

const errorWith = (reason: string): TomlError => new TomlError(reason, { toml: 'token = "sk-secret"\n', ptr: 3 } as ConstructorParameters<typeof TomlError>[1]);

describe('MalformedConfig messages', () => {
  it("know every reason smol-toml gives, so none is replaced by the generic one", () => {
    const reasons = smolTomlReasons();
    expect(reasons.length).toBeGreaterThan(20);
    for (const reason of reasons) expect(tomlErrorReason(errorWith(reason))).toBe(reason);
  });

  it('drop the code excerpt and anything that is not a known reason', () => {
    const error = errorWith('invalid value');
    expect(error.message).toContain('sk-secret');
    expect(malformedConfigFrom(error)).toEqual({ _tag: 'MalformedConfig', line: 1, column: 4, message: 'invalid value' });
    expect(tomlErrorReason(errorWith('Invalid date "sk-secret"'))).toBe(UNKNOWN_TOML_REASON);
    expect(malformedConfigFrom(new RangeError('sk-secret'))).toEqual({ _tag: 'MalformedConfig', line: 1, column: 1, message: UNKNOWN_TOML_REASON });
  });
});
