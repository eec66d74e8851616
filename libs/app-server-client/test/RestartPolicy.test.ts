import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY } from '../src/index.js';
import { backoffDelay, initialSupervisorState, stepSupervisor } from '../src/RestartPolicy.js';
import type { RestartPolicyConfig } from '../src/index.js';
import type { SupervisorCommand, SupervisorEvent, SupervisorState } from '../src/RestartPolicy.js';

const killed = { _tag: 'Exited', code: null, signal: 'SIGKILL' } as const;

const config: fc.Arbitrary<RestartPolicyConfig> = fc
  .record({ initialDelayMs: fc.integer({ min: 1, max: 2_000 }), factor: fc.integer({ min: 1, max: 64 }), crashLoopLimit: fc.integer({ min: 1, max: 8 }), crashLoopWindowMs: fc.integer({ min: 1, max: 120_000 }) })
  .map(({ initialDelayMs, factor, crashLoopLimit, crashLoopWindowMs }) => ({ initialDelayMs, maxDelayMs: initialDelayMs * factor, crashLoopLimit, crashLoopWindowMs }));

/** Events with increasing times (gaps of 0 to 30 s). */
const events: fc.Arbitrary<SupervisorEvent[]> = fc
  .array(
    fc.tuple(
      fc.integer({ min: 0, max: 30_000 }),
      fc.constantFrom('Started', 'Crashed', 'StartFailed', 'RestartRequested', 'Stop', 'Started', 'Crashed'),
    ),
    { maxLength: 60 },
  )
  .map((steps) => {
    let at = 0;
    return steps.map(([gap, tag]): SupervisorEvent => {
      at += gap;
      if (tag === 'Stop') return { _tag: 'Stop' };
      if (tag === 'Crashed') return { _tag: 'Crashed', at, reason: killed };
      if (tag === 'StartFailed') return { _tag: 'StartFailed', at, reason: { _tag: 'StartFailed', error: 'InitializeFailed' } };
      return { _tag: tag, at };
    });
  });

interface Trace {
  readonly before: SupervisorState;
  readonly event: SupervisorEvent;
  readonly after: SupervisorState;
  readonly command: SupervisorCommand;
}

const run = (policy: RestartPolicyConfig, list: ReadonlyArray<SupervisorEvent>): Trace[] => {
  let state = initialSupervisorState;
  return list.map((event) => {
    const step = stepSupervisor(policy, state, event);
    const trace = { before: state, event, after: step.state, command: step.command };
    state = step.state;
    return trace;
  });
};

describe('the restart policy', () => {
  it('restarts a crashed process after the initial backoff, then ready again', () => {
    const ready = stepSupervisor(DEFAULT_RESTART_POLICY, initialSupervisorState, { _tag: 'Started', at: 0 });
    expect(ready.state._tag).toBe('Ready');
    const crashed = stepSupervisor(DEFAULT_RESTART_POLICY, ready.state, { _tag: 'Crashed', at: 1_000, reason: killed });
    expect(crashed).toMatchObject({ state: { _tag: 'Restarting', delayMs: 500, reason: killed }, command: { _tag: 'StartAfter', delayMs: 500 } });
    expect(stepSupervisor(DEFAULT_RESTART_POLICY, crashed.state, { _tag: 'Started', at: 1_600 }).state._tag).toBe('Ready');
  });

  it('gives up at the fifth crash within a minute, and starts again when asked', () => {
    let state = stepSupervisor(DEFAULT_RESTART_POLICY, initialSupervisorState, { _tag: 'Started', at: 0 }).state;
    const delays: number[] = [];
    for (let crash = 1; crash <= 5; crash++) {
      const step = stepSupervisor(DEFAULT_RESTART_POLICY, state, { _tag: 'Crashed', at: crash * 1_000, reason: killed });
      if (step.command._tag === 'StartAfter') delays.push(step.command.delayMs);
      state = step.command._tag === 'StartAfter' ? stepSupervisor(DEFAULT_RESTART_POLICY, step.state, { _tag: 'Started', at: crash * 1_000 + 10 }).state : step.state;
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000]);
    expect(state).toMatchObject({ _tag: 'Failed', reason: killed });
    expect(stepSupervisor(DEFAULT_RESTART_POLICY, state, { _tag: 'RestartRequested', at: 6_000 })).toEqual({ state: { _tag: 'Starting', crashes: [] }, command: { _tag: 'StartAfter', delayMs: 0 } });
  });

  it('forgets crashes older than the window', () => {
    let state = stepSupervisor(DEFAULT_RESTART_POLICY, initialSupervisorState, { _tag: 'Started', at: 0 }).state;
    for (let crash = 0; crash < 20; crash++) {
      const at = (crash + 1) * 20_000;
      const step = stepSupervisor(DEFAULT_RESTART_POLICY, state, { _tag: 'Crashed', at, reason: killed });
      expect(step.command._tag).toBe('StartAfter');
      state = stepSupervisor(DEFAULT_RESTART_POLICY, step.state, { _tag: 'Started', at: at + 1 }).state;
    }
  });

  it('property: a backoff is within [initial, max] and never shrinks as crashes add up', () => {
    fc.assert(
      fc.property(config, fc.integer({ min: 1, max: 100 }), (policy, count) => {
        const delay = backoffDelay(policy, count);
        expect(delay).toBeGreaterThanOrEqual(policy.initialDelayMs);
        expect(delay).toBeLessThanOrEqual(policy.maxDelayMs);
        expect(backoffDelay(policy, count + 1)).toBeGreaterThanOrEqual(delay);
      }),
      { numRuns: 1_000 },
    );
  });

  it('property: Failed only when the limit of crashes fell within one window, and then no start until asked', () => {
    fc.assert(
      fc.property(config, events, (policy, list) => {
        for (const step of run(policy, list)) {
          if (step.after._tag === 'Failed' && step.before._tag !== 'Failed') {
            expect(step.command).toEqual({ _tag: 'GiveUp' });
            expect(step.after.crashes.length).toBe(policy.crashLoopLimit);
            const times = step.after.crashes;
            expect((times[times.length - 1] ?? 0) - (times[0] ?? 0)).toBeLessThan(policy.crashLoopWindowMs);
          }
          if (step.before._tag === 'Failed' && step.event._tag !== 'RestartRequested' && step.event._tag !== 'Stop') {
            expect(step.command).toEqual({ _tag: 'Nothing' });
            expect(step.after).toBe(step.before);
          }
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('property: every crash of a ready process either schedules a restart with the backoff or gives up', () => {
    fc.assert(
      fc.property(config, events, (policy, list) => {
        for (const step of run(policy, list)) {
          if (step.event._tag !== 'Crashed' || step.before._tag !== 'Ready') continue;
          if (step.after._tag === 'Restarting') {
            expect(step.command).toEqual({ _tag: 'StartAfter', delayMs: backoffDelay(policy, step.after.crashes.length) });
            expect(step.after.crashes.length).toBeLessThan(policy.crashLoopLimit);
          } else expect(step.after._tag).toBe('Failed');
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('property: Stopped is final, a start asked for means Ready (any other report is stale), and a planned restart starts at once', () => {
    fc.assert(
      fc.property(config, events, (policy, list) => {
        let stopped = false;
        for (const step of run(policy, list)) {
          if (stopped) {
            expect(step.after).toEqual({ _tag: 'Stopped' });
            expect(step.command).toEqual({ _tag: 'Nothing' });
            continue;
          }
          if (step.event._tag === 'Stop') stopped = true;
          if (step.event._tag === 'Started') {
            if (step.before._tag === 'Starting' || step.before._tag === 'Restarting') expect(step.after._tag).toBe('Ready');
            else expect(step.after).toBe(step.before);
          }
          if (step.event._tag === 'RestartRequested') expect(step.command).toEqual({ _tag: 'StartAfter', delayMs: 0 });
          // The window never holds more crashes than the limit.
          if (step.after._tag !== 'Stopped') expect(step.after.crashes.length).toBeLessThanOrEqual(policy.crashLoopLimit);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('property: a stale end (not of a ready process) changes nothing', () => {
    fc.assert(
      fc.property(config, events, (policy, list) => {
        for (const step of run(policy, list)) {
          if (step.event._tag === 'Crashed' && step.before._tag !== 'Ready') {
            expect(step.after).toBe(step.before);
            expect(step.command).toEqual({ _tag: 'Nothing' });
          }
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
