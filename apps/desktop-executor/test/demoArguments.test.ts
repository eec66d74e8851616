import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_USAGE, parseDemoInvocation } from '../src/DemoArguments.js';

describe('the demo command line', () => {
  it('takes --codex in both spellings, else WEWORK_CODEX_PATH, else the installed Codex', () => {
    expect(parseDemoInvocation(['--codex=/opt/codex'], undefined)).toEqual(E.right({ _tag: 'Run', codexPath: '/opt/codex' }));
    expect(parseDemoInvocation(['--codex', '/opt/codex'], '/env/codex')).toEqual(E.right({ _tag: 'Run', codexPath: '/opt/codex' }));
    expect(parseDemoInvocation([], '/env/codex')).toEqual(E.right({ _tag: 'Run', codexPath: '/env/codex' }));
    expect(parseDemoInvocation([], '')).toEqual(E.right({ _tag: 'Run', codexPath: null }));
    expect(parseDemoInvocation([], undefined)).toEqual(E.right({ _tag: 'Run', codexPath: null }));
  });

  it('--help asks for the usage; unknown options, positionals and an empty --codex are refused with it', () => {
    expect(parseDemoInvocation(['--help'], undefined)).toEqual(E.right({ _tag: 'Help' }));
    expect(parseDemoInvocation(['-h', '--codex=x'], undefined)).toEqual(E.right({ _tag: 'Help' }));
    for (const argv of [['--bogus'], ['extra'], ['--codex='], ['--codex']]) {
      const parsed = parseDemoInvocation(argv, undefined);
      expect(E.isLeft(parsed), argv.join(' ')).toBe(true);
      if (E.isLeft(parsed)) expect(parsed.left).toContain(DEMO_USAGE);
    }
  });

  it('never throws, whatever the arguments', () => {
    fc.assert(fc.property(fc.array(fc.string()), fc.option(fc.string(), { nil: undefined }), (argv, env) => {
      const parsed = parseDemoInvocation(argv, env);
      expect(parsed._tag === 'Left' || parsed._tag === 'Right').toBe(true);
    }));
  });
});
