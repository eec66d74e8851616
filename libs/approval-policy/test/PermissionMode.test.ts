import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThreadFork, ThreadResume, ThreadStart, TurnStart } from '@wework/codex-protocol';
import { weworkGranularApprovalPolicy } from '@wework/elicitation-mapper';
import {
  DEFAULT_PERMISSION_MODE,
  PERMISSION_MODES,
  applyPermissionMode,
  decodePermissionMode,
  permissionModeOf,
  permissionParams,
} from '../src/index.js';
import { approvalPolicyArbitrary, permissionModeArbitrary } from '../src/testing.js';

describe('permission modes', () => {
  it('map to the runtime spec table', () => {
    expect(permissionParams('read-only')).toEqual({ permissions: ':read-only', approvalPolicy: 'on-request' });
    expect(permissionParams('workspace')).toEqual({ permissions: ':workspace', approvalPolicy: 'on-request' });
    expect(permissionParams('full-access')).toEqual({ permissions: ':danger-full-access', approvalPolicy: weworkGranularApprovalPolicy });
    expect(PERMISSION_MODES).toEqual(['read-only', 'workspace', 'full-access']);
  });

  it('default to Full access when no mode is persisted', () => {
    expect(DEFAULT_PERMISSION_MODE).toBe('full-access');
    expect(decodePermissionMode(undefined)).toEqual(E.right('full-access'));
  });

  it('decode every known mode as itself', () => {
    for (const mode of PERMISSION_MODES) expect(decodePermissionMode(mode)).toEqual(E.right(mode));
  });

  it('refuse unknown persisted values with a typed error, never a fallback', () => {
    for (const value of [null, 'admin', 'Full access', ':danger-full-access', 'FULL-ACCESS', 3, true, {}, ['workspace']]) {
      const decoded = decodePermissionMode(value);
      expect(decoded._tag, JSON.stringify(value)).toBe('Left');
      if (E.isLeft(decoded)) {
        expect(decoded.left._tag).toBe('UnknownPermissionMode');
        expect(decoded.left.value).toBe(value);
      }
    }
    expect(E.isLeft(decodePermissionMode('admin')) && decodePermissionMode('admin')).toMatchObject({ left: { message: expect.stringContaining('"admin"') } });
  });

  it('never throw, and only give a mode for undefined or a mode itself (arbitrary JSON)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const decoded = decodePermissionMode(value);
        if (E.isRight(decoded)) expect(PERMISSION_MODES).toContain(value);
      }),
    );
  });

  it('read back from their params: permissionModeOf inverts permissionParams', () => {
    fc.assert(
      fc.property(permissionModeArbitrary, (mode) => {
        expect(permissionModeOf(permissionParams(mode))).toBe(mode);
      }),
    );
    expect(permissionModeOf({ permissions: ':danger-full-access', approvalPolicy: 'never' })).toBeUndefined();
    expect(permissionModeOf({ permissions: ':workspace', approvalPolicy: weworkGranularApprovalPolicy })).toBeUndefined();
  });

  it('permissionModeOf never names a mode for other params', () => {
    fc.assert(
      fc.property(fc.constantFrom(':read-only', ':workspace', ':danger-full-access', ':custom'), approvalPolicyArbitrary, (permissions, approvalPolicy) => {
        const mode = permissionModeOf({ permissions, approvalPolicy });
        if (mode !== undefined) expect(permissionParams(mode)).toEqual({ permissions, approvalPolicy });
      }),
    );
  });
});

describe('applyPermissionMode', () => {
  it('gives valid params for thread/start, thread/resume, thread/fork and turn/start', () => {
    fc.assert(
      fc.property(permissionModeArbitrary, (mode) => {
        const expected = permissionParams(mode);
        const start = applyPermissionMode({ cwd: '/repo', sandbox: 'workspace-write' }, mode);
        const resume = applyPermissionMode({ threadId: 't1', sandbox: 'read-only', approvalPolicy: 'never' }, mode);
        const fork = applyPermissionMode({ threadId: 't1', permissions: ':workspace' }, mode);
        const turn = applyPermissionMode({ threadId: 't1', input: [], sandboxPolicy: { type: 'readOnly', networkAccess: false } }, mode);
        for (const [descriptor, params] of [
          [ThreadStart, start],
          [ThreadResume, resume],
          [ThreadFork, fork],
          [TurnStart, turn],
        ] as const) {
          expect(E.isRight(descriptor.params.decode(params)), descriptor.method).toBe(true);
          expect(params).toMatchObject(expected);
          expect(params).not.toHaveProperty('sandbox');
          expect(params).not.toHaveProperty('sandboxPolicy');
        }
        expect(start).toEqual({ cwd: '/repo', ...expected });
        expect(turn).toEqual({ threadId: 't1', input: [], ...expected });
      }),
    );
  });

  it('replaces whatever policy the params carried, including "never"', () => {
    fc.assert(
      fc.property(permissionModeArbitrary, approvalPolicyArbitrary, (mode, approvalPolicy) => {
        expect(applyPermissionMode({ threadId: 't', approvalPolicy }, mode).approvalPolicy).toEqual(permissionParams(mode).approvalPolicy);
      }),
    );
  });
});
