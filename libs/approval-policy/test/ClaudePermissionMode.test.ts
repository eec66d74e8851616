import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClaudePermissionMode, claudePermissionMode } from '../src/index.js';
import type { ClaudeContext } from '../src/ClaudePermissionMode.js';

const MODES = Object.keys(ClaudePermissionMode.keys) as ReadonlyArray<ClaudePermissionMode>;

describe('claudePermissionMode', () => {
  it('maps default and a missing setting to bypassPermissions in non-interactive child processes', () => {
    expect(claudePermissionMode('default', 'nonInteractiveChild')).toEqual(E.right('bypassPermissions'));
    expect(claudePermissionMode(undefined, 'nonInteractiveChild')).toEqual(E.right('bypassPermissions'));
  });

  it('passes explicit acceptEdits, plan, auto and bypassPermissions through unchanged', () => {
    for (const mode of ['acceptEdits', 'plan', 'auto', 'bypassPermissions'] as const) {
      expect(claudePermissionMode(mode, 'nonInteractiveChild')).toEqual(E.right(mode));
    }
  });

  it('does not map interactive terminals: the setting as it is, missing stays missing', () => {
    for (const mode of MODES) expect(claudePermissionMode(mode, 'interactiveTerminal')).toEqual(E.right(mode));
    expect(claudePermissionMode(undefined, 'interactiveTerminal')).toEqual(E.right(undefined));
  });

  it('refuses unknown values with a typed error in both contexts, without guessing', () => {
    for (const context of ['nonInteractiveChild', 'interactiveTerminal'] as const) {
      for (const value of ['yolo', 'Default', 'dontAsk', null, 1, {}, ['plan']]) {
        const result = claudePermissionMode(value, context);
        expect(result).toMatchObject(E.left({ _tag: 'UnknownClaudePermissionMode' }));
      }
    }
  });

  it('never throws, and only ever returns a known mode or undefined (arbitrary JSON)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom<ClaudeContext>('nonInteractiveChild', 'interactiveTerminal'), (value, context) => {
        const result = claudePermissionMode(value, context);
        if (E.isRight(result) && result.right !== undefined) expect(MODES).toContain(result.right);
        if (E.isRight(result)) expect(MODES).toContain(value);
      }),
    );
  });
});
