import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PERMISSION_MODES,
  comparePermissiveness,
  needsFullAccessConfirmation,
  permissionModeOf,
  permissionParams,
  permissionParamsForTask,
  type PermissionCall,
  type PermissionMode,
} from '../src/index.js';
import { PERMISSIVENESS } from '../src/PermissionMode.js';
import { permissionModeArbitrary, persistedTaskArbitrary } from '../src/testing.js';

const CALLS: ReadonlyArray<PermissionCall> = ['thread/start', 'thread/resume', 'thread/fork', 'turn/start'];
const callArbitrary = fc.constantFrom(...CALLS);
const task = (permissionMode: unknown): unknown => ({ id: 't1', modelSelection: { model: 'gpt-5.5', options: { permissionMode, effort: 'high' } } });

/** The mode a persisted task asks for, read independently of the implementation; `undefined` when corrupt. */
function persistedMode(persisted: unknown): PermissionMode | 'missing' | undefined {
  const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
  if (!isObject(persisted)) return undefined;
  const selection = persisted['modelSelection'];
  if (selection === undefined) return 'missing';
  if (!isObject(selection)) return undefined;
  const options = selection['options'];
  if (options === undefined) return 'missing';
  if (!isObject(options)) return undefined;
  const mode = options['permissionMode'];
  if (mode === undefined) return 'missing';
  return (PERMISSION_MODES as ReadonlyArray<unknown>).includes(mode) ? (mode as PermissionMode) : undefined;
}

describe('permissiveness', () => {
  it('is the total order read-only < workspace < full-access', () => {
    expect(PERMISSIVENESS).toEqual({ 'read-only': 0, workspace: 1, 'full-access': 2 });
    expect([...PERMISSION_MODES].reverse().sort(comparePermissiveness)).toEqual(['read-only', 'workspace', 'full-access']);
    fc.assert(
      fc.property(permissionModeArbitrary, permissionModeArbitrary, (a, b) => {
        expect(Math.sign(comparePermissiveness(a, b)) + Math.sign(comparePermissiveness(b, a))).toBe(0);
        expect(comparePermissiveness(a, b) === 0).toBe(a === b);
      }),
    );
  });
});

describe('permissionParamsForTask', () => {
  it('reads modelSelection.options.permissionMode and ignores every other key', () => {
    for (const call of CALLS) {
      for (const mode of PERMISSION_MODES) expect(permissionParamsForTask(task(mode), call)).toEqual({ call, mode, params: permissionParams(mode) });
    }
  });

  it('runs a task without a mode in Full access, without a warning', () => {
    for (const persisted of [{}, { modelSelection: {} }, { modelSelection: { options: {} } }, { title: 'historical task', modelSelection: { model: 'gpt-5.5' } }]) {
      const result = permissionParamsForTask(persisted, 'thread/resume');
      expect(result).toEqual({ call: 'thread/resume', mode: 'full-access', params: permissionParams('full-access') });
      expect(result).not.toHaveProperty('warning');
    }
  });

  it('fails closed to Read only with a typed warning for unknown or corrupt values', () => {
    const cases: ReadonlyArray<[unknown, string, string]> = [
      [task('admin'), 'modelSelection.options.permissionMode', '"admin"'],
      [task(null), 'modelSelection.options.permissionMode', 'null'],
      [task('FULL-ACCESS'), 'modelSelection.options.permissionMode', '"FULL-ACCESS"'],
      [task(['workspace']), 'modelSelection.options.permissionMode', 'an array'],
      [{ modelSelection: { options: 'workspace' } }, 'modelSelection.options', '"workspace"'],
      [{ modelSelection: null }, 'modelSelection', 'null'],
      [null, '(task)', 'null'],
      ['full-access', '(task)', '"full-access"'],
    ];
    for (const [persisted, path, description] of cases) {
      const result = permissionParamsForTask(persisted, 'turn/start');
      expect(result.mode, JSON.stringify(persisted)).toBe('read-only');
      expect(result.params).toEqual({ permissions: ':read-only', approvalPolicy: 'on-request' });
      expect(result.warning).toEqual({ _tag: 'UnknownPermissionMode', path, description, fallback: 'read-only', message: expect.stringContaining('Read only') });
    }
  });

  it('describes long values without echoing them', () => {
    const secretish = 'x'.repeat(500);
    const result = permissionParamsForTask(task(secretish), 'thread/start');
    expect(result.warning?.description).toBe('a string of 500 characters');
    expect(JSON.stringify(result)).not.toContain(secretish);
  });

  it('is never more permissive than the persisted mode, and exactly it when valid (arbitrary JSON)', () => {
    fc.assert(
      fc.property(persistedTaskArbitrary, callArbitrary, (persisted, call) => {
        const result = permissionParamsForTask(persisted, call);
        const expected = persistedMode(persisted);
        if (expected === 'missing') expect(result.mode).toBe('full-access');
        else if (expected === undefined) {
          expect(result.mode).toBe('read-only');
          expect(result.warning?._tag).toBe('UnknownPermissionMode');
        } else {
          expect(result.mode).toBe(expected);
          expect(comparePermissiveness(result.mode, expected)).toBeLessThanOrEqual(0);
          expect(result.warning).toBeUndefined();
        }
        expect(permissionModeOf(result.params)).toBe(result.mode);
        expect(result.call).toBe(call);
      }),
    );
  });

  it('never throws, whatever is passed', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (persisted, call) => {
        permissionParamsForTask(persisted, call as PermissionCall);
      }),
      { numRuns: 200 },
    );
  });
});

describe('needsFullAccessConfirmation', () => {
  it('is true exactly for an explicit switch from another mode into Full access', () => {
    expect(needsFullAccessConfirmation('read-only', 'full-access')).toBe(true);
    expect(needsFullAccessConfirmation('workspace', 'full-access')).toBe(true);
    expect(needsFullAccessConfirmation(undefined, 'full-access')).toBe(false);
    expect(needsFullAccessConfirmation('full-access', 'full-access')).toBe(false);
    fc.assert(
      fc.property(fc.option(permissionModeArbitrary, { nil: undefined }), permissionModeArbitrary, (from, to) => {
        expect(needsFullAccessConfirmation(from, to)).toBe(from !== undefined && from !== 'full-access' && to === 'full-access');
      }),
    );
  });
});
