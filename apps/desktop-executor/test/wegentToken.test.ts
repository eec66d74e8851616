/**
 * The executor's runtime token service on a fake clock: the expiring notice comes at the rule's time
 * (80 % of the lifetime or a minute before the expiry) and not before, once per token; a new token
 * replaces the notice of the old one; a timer that fires early is armed again; the overrides carry the
 * token under `shell_environment_policy.set.WEGENT_RUNTIME_AUTH_TOKEN` and the log never holds it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expiringNoticeAt } from '@wework/host-protocol';
import { wegentRuntimeToken } from '../src/runtime/WegentRuntimeToken.js';
import type { LogEntry } from '@wework/ports';
import { fakeClock } from './support/fakeClock.js';

const START = 1_700_000_000_000;

function service() {
  const clock = fakeClock(START);
  const notices: Array<{ readonly at: number; readonly expiresAt: number; readonly expiresIn: number }> = [];
  const log: LogEntry[] = [];
  const token = wegentRuntimeToken({ clock, timer: clock, notify: (notice) => notices.push({ at: clock.now(), ...notice }), log: (entry) => log.push(entry) });
  return { clock, notices, log, token };
}

describe('the runtime token service', () => {
  it('has no overrides before a token, and the token under the shell environment policy after', () => {
    const { token } = service();
    expect(token.version()).toBe(0);
    expect(token.overrides()).toEqual({});
    token.set('runtime-token-1', 3600);
    expect(token.version()).toBe(1);
    expect(token.overrides()).toEqual({ 'shell_environment_policy.set.WEGENT_RUNTIME_AUTH_TOKEN': 'runtime-token-1' });
    token.set('runtime-token-2', 3600);
    expect(token.version()).toBe(2);
    expect(token.overrides()).toEqual({ 'shell_environment_policy.set.WEGENT_RUNTIME_AUTH_TOKEN': 'runtime-token-2' });
  });

  it('asks for a new token at 80 % of an hour, not a millisecond before, and once', () => {
    const { clock, notices, token } = service();
    expect(token.set('runtime-token', 3600)).toEqual({ receivedAt: START, refreshAt: START + 2_880_000, expiresAt: START + 3_600_000 });
    clock.advance(2_880_000 - 1);
    expect(notices).toEqual([]);
    clock.advance(1);
    expect(notices).toEqual([{ at: START + 2_880_000, expiresAt: START + 3_600_000, expiresIn: 720 }]);
    clock.advance(3_600_000);
    expect(notices).toHaveLength(1);
  });

  it('at any lifetime, the notice comes at the rule time, before the expiry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 * 24 * 3600 }), (seconds) => {
        const { clock, notices, token } = service();
        token.set('runtime-token', seconds);
        const due = expiringNoticeAt(START, seconds);
        if (due > START) {
          clock.advance(due - START - 1);
          expect(notices).toEqual([]);
          clock.advance(1);
        }
        expect(notices).toEqual([{ at: due, expiresAt: START + seconds * 1000, expiresIn: Math.floor((START + seconds * 1000 - due) / 1000) }]);
        expect(notices[0]!.at).toBeLessThan(START + seconds * 1000);
      }),
      { numRuns: 200 },
    );
  });

  it('a refreshed token replaces the pending notice with its own', () => {
    const { clock, notices, token } = service();
    token.set('runtime-token-1', 3600);
    clock.advance(1_000_000);
    token.set('runtime-token-2', 600);
    clock.advance(480_000 - 1);
    expect(notices).toEqual([]);
    clock.advance(1);
    expect(notices).toEqual([{ at: START + 1_480_000, expiresAt: START + 1_600_000, expiresIn: 120 }]);
    clock.advance(10_000_000);
    expect(notices).toHaveLength(1);
  });

  it('a timer that fires before the notice time is armed again', () => {
    const clock = fakeClock(START);
    const notices: number[] = [];
    let armed: { readonly at: number; readonly fire: () => void } | null = null;
    // A timer that fires at once, as `setTimeout` does at its longest delay for a later deadline.
    const early = { set: (at: number, fire: () => void) => void (armed = { at, fire }), clear: () => void (armed = null) };
    const token = wegentRuntimeToken({ clock, timer: early, notify: () => notices.push(clock.now()), log: () => undefined });
    token.set('runtime-token', 30 * 24 * 3600);
    const first = armed as { readonly at: number; readonly fire: () => void } | null;
    first?.fire();
    expect(notices).toEqual([]);
    expect((armed as { readonly at: number } | null)?.at).toBe(expiringNoticeAt(START, 30 * 24 * 3600));
    clock.advance(expiringNoticeAt(START, 30 * 24 * 3600) - START);
    (armed as { readonly fire: () => void } | null)?.fire();
    expect(notices).toHaveLength(1);
  });

  it('never logs the token', () => {
    const { clock, log, token } = service();
    token.set('runtime-token-canary-0123456789', 120);
    clock.advance(120_000);
    expect(log.map((entry) => entry.event)).toEqual(['wegent runtime token set', 'wegent runtime token expiring']);
    expect(JSON.stringify(log)).not.toContain('canary');
  });
});
