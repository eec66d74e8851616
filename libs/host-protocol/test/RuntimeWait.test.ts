/**
 * The waiting rule of requests that need Codex: `ready` always runs, `failed` and `stopped` always refuse
 * (not retryable), `restarting` and `starting` wait — never past the bound (the pending backoff plus the
 * start timeout, at most `maxWaitMs`), never more than `maxWaiting` at once — and a run the app-server
 * ended under is run again only while runs are left. A model of the executor's loop over arbitrary
 * status changes ends every wait by its deadline.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideRuntimeWait,
  DEFAULT_RUNTIME_WAIT,
  HostErrorCode,
  runAgain,
  type RuntimeState,
  type RuntimeWaitConfig,
} from '../src/index.js';
import { runtimeWaitBound, type RuntimeWaitInput } from '../src/RuntimeWait.js';

const config = DEFAULT_RUNTIME_WAIT;
const state = fc.constantFrom<RuntimeState>('starting', 'ready', 'restarting', 'failed', 'stopped');
const pending = fc.constantFrom<RuntimeState>('starting', 'restarting');
const time = fc.integer({ min: 0, max: 4_000_000_000_000 });
const retryInMs = fc.option(fc.integer({ min: 0, max: 600_000 }), { nil: null });
const configs: fc.Arbitrary<RuntimeWaitConfig> = fc.record({
  maxWaitMs: fc.integer({ min: 0, max: 120_000 }),
  startTimeoutMs: fc.integer({ min: 0, max: 120_000 }),
  maxWaiting: fc.integer({ min: 0, max: 512 }),
  maxRuns: fc.integer({ min: 1, max: 5 }),
});
const inputs: fc.Arbitrary<RuntimeWaitInput> = fc
  .record({ state, retryInMs, now: time, since: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: null }), bound: fc.integer({ min: 0, max: 120_000 }), waiting: fc.integer({ min: 0, max: 1_000 }) })
  .map(({ since, bound, now, ...rest }) => ({ ...rest, now, waitingSince: since === null ? null : now - since, deadline: since === null ? null : now - since + bound }));

describe('runtimeWaitBound', () => {
  it('is the pending backoff plus the start timeout, at most maxWaitMs', () => {
    expect(runtimeWaitBound(config, 500)).toBe(30_000);
    expect(runtimeWaitBound({ ...config, startTimeoutMs: 5_000 }, 500)).toBe(5_500);
    expect(runtimeWaitBound({ ...config, startTimeoutMs: 5_000 }, null)).toBe(5_000);
    expect(runtimeWaitBound({ ...config, maxWaitMs: 0 }, 8_000)).toBe(0);
    expect(runtimeWaitBound(config, Number.POSITIVE_INFINITY)).toBe(30_000);
  });

  it('is never negative and never above maxWaitMs', () => {
    fc.assert(
      fc.property(configs, retryInMs, (c, retry) => {
        const bound = runtimeWaitBound(c, retry);
        expect(bound).toBeGreaterThanOrEqual(0);
        expect(bound).toBeLessThanOrEqual(c.maxWaitMs);
      }),
    );
  });
});

describe('decideRuntimeWait', () => {
  it('runs when ready, refuses failed and stopped for good, waits while restarting or starting', () => {
    const fresh = { retryInMs: 500, now: 1_000, waitingSince: null, deadline: null, waiting: 0 };
    expect(decideRuntimeWait(config, { ...fresh, state: 'ready' })).toEqual({ _tag: 'Run' });
    expect(decideRuntimeWait(config, { ...fresh, state: 'failed' })).toEqual({ _tag: 'Refuse', refusal: { _tag: 'RuntimeFailed' }, retryable: false });
    expect(decideRuntimeWait(config, { ...fresh, state: 'stopped' })).toEqual({ _tag: 'Refuse', refusal: { _tag: 'RuntimeStopped' }, retryable: false });
    expect(decideRuntimeWait(config, { ...fresh, state: 'restarting' })).toEqual({ _tag: 'Wait', deadline: 31_000 });
    expect(decideRuntimeWait({ ...config, startTimeoutMs: 2_000 }, { ...fresh, state: 'starting', retryInMs: null })).toEqual({ _tag: 'Wait', deadline: 3_000 });
  });

  it('keeps a wait to its deadline, then refuses it retryably', () => {
    const waiting = { state: 'restarting' as const, retryInMs: 500, waitingSince: 1_000, deadline: 31_000, waiting: 5 };
    expect(decideRuntimeWait(config, { ...waiting, now: 30_999 })).toEqual({ _tag: 'Wait', deadline: 31_000 });
    expect(decideRuntimeWait(config, { ...waiting, now: 31_000 })).toEqual({ _tag: 'Refuse', refusal: { _tag: 'RuntimeWaitTimedOut', waitedMs: 30_000 }, retryable: true });
    // Failed meanwhile: refused at once, not retryable; ready meanwhile: run.
    expect(decideRuntimeWait(config, { ...waiting, state: 'failed', now: 2_000 })).toMatchObject({ _tag: 'Refuse', retryable: false });
    expect(decideRuntimeWait(config, { ...waiting, state: 'ready', now: 2_000 })).toEqual({ _tag: 'Run' });
  });

  it('refuses a new waiter beyond maxWaiting, but never one already waiting', () => {
    const full = { state: 'restarting' as const, retryInMs: 500, now: 0, waiting: config.maxWaiting };
    expect(decideRuntimeWait(config, { ...full, waitingSince: null, deadline: null })).toEqual({ _tag: 'Refuse', refusal: { _tag: 'TooManyWaiting', limit: 64 }, retryable: true });
    expect(decideRuntimeWait(config, { ...full, waiting: 63, waitingSince: null, deadline: null })).toEqual({ _tag: 'Wait', deadline: 30_000 });
    expect(decideRuntimeWait(config, { ...full, waitingSince: 0, deadline: 30_000 })).toEqual({ _tag: 'Wait', deadline: 30_000 });
  });

  it('ready always runs', () => {
    fc.assert(
      fc.property(configs, inputs, (c, input) => {
        expect(decideRuntimeWait(c, { ...input, state: 'ready' })).toEqual({ _tag: 'Run' });
      }),
    );
  });

  it('failed and stopped always refuse, not retryable', () => {
    fc.assert(
      fc.property(configs, inputs, fc.constantFrom<RuntimeState>('failed', 'stopped'), (c, input, ended) => {
        const decision = decideRuntimeWait(c, { ...input, state: ended });
        expect(decision).toMatchObject({ _tag: 'Refuse', retryable: false });
      }),
    );
  });

  it('restarting and starting never run, and every refusal of them is retryable', () => {
    fc.assert(
      fc.property(configs, inputs, pending, (c, input, now) => {
        const decision = decideRuntimeWait(c, { ...input, state: now });
        expect(decision._tag).not.toBe('Run');
        if (decision._tag === 'Refuse') expect(decision.retryable).toBe(true);
      }),
    );
  });

  it('never waits past the bound: a new wait ends within runtimeWaitBound, a running one by its deadline', () => {
    fc.assert(
      fc.property(configs, inputs, pending, (c, input, now) => {
        const decision = decideRuntimeWait(c, { ...input, state: now });
        if (decision._tag !== 'Wait') return;
        expect(decision.deadline).toBeGreaterThan(input.now);
        if (input.deadline === null) expect(decision.deadline).toBeLessThanOrEqual(input.now + Math.min(c.maxWaitMs, runtimeWaitBound(c, input.retryInMs)));
        else expect(decision.deadline).toBe(input.deadline);
      }),
    );
  });

  it('a new waiter is refused exactly when maxWaiting requests wait already', () => {
    fc.assert(
      fc.property(configs, inputs, pending, (c, input, now) => {
        const decision = decideRuntimeWait(c, { ...input, state: now, waitingSince: null, deadline: null });
        expect(decision._tag === 'Refuse' && decision.refusal._tag === 'TooManyWaiting').toBe(input.waiting >= c.maxWaiting);
      }),
    );
  });

  it('the executor loop over arbitrary status changes ends by the deadline: run when ready, refused otherwise', () => {
    const change = fc.record({ afterMs: fc.integer({ min: 0, max: 40_000 }), state });
    fc.assert(
      fc.property(configs, pending, retryInMs, time, fc.array(change, { maxLength: 20 }), (c, first, retry, start, changes) => {
        // The loop as the executor runs it: decide, and while told to wait, sleep until the next change or the deadline.
        let current: RuntimeState = first;
        let now = start;
        let waitingSince: number | null = null;
        let deadline: number | null = null;
        const queue = changes.map((entry, index) => ({ at: start + changes.slice(0, index + 1).reduce((sum, e) => sum + e.afterMs, 0), state: entry.state }));
        for (let steps = 0; steps < 100; steps++) {
          const decision = decideRuntimeWait(c, { state: current, retryInMs: retry, now, waitingSince, deadline, waiting: 0 });
          if (decision._tag === 'Run') {
            expect(current).toBe('ready');
            expect(now - start).toBeLessThanOrEqual(c.maxWaitMs);
            return;
          }
          if (decision._tag === 'Refuse') {
            expect(now - start).toBeLessThanOrEqual(c.maxWaitMs);
            if (decision.refusal._tag === 'RuntimeWaitTimedOut') expect(decision.refusal.waitedMs).toBe(now - start);
            return;
          }
          waitingSince ??= now;
          deadline = decision.deadline;
          const next = queue[0];
          if (next !== undefined && next.at < decision.deadline) {
            queue.shift();
            now = Math.max(now, next.at);
            current = next.state;
          } else now = decision.deadline;
        }
        throw new Error('the loop did not end');
      }),
    );
  });
});

describe('runAgain', () => {
  it('runs again only after a retryable -32012, while runs are left', () => {
    expect(runAgain(config, { code: HostErrorCode.RuntimeUnavailable, retryable: true }, 1)).toBe(true);
    expect(runAgain(config, { code: HostErrorCode.RuntimeUnavailable, retryable: true }, 2)).toBe(false);
    expect(runAgain(config, { code: HostErrorCode.RuntimeUnavailable, retryable: false }, 1)).toBe(false);
    expect(runAgain(config, { code: HostErrorCode.RuntimeTimedOut, retryable: true }, 1)).toBe(false);
    expect(runAgain(config, { code: null }, 1)).toBe(false);
  });

  it('never makes more than maxRuns runs', () => {
    fc.assert(
      fc.property(configs, fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }), (c, retryables) => {
        let runs = 0;
        for (const retryable of retryables) {
          runs += 1;
          if (!runAgain(c, { code: HostErrorCode.RuntimeUnavailable, retryable }, runs)) break;
        }
        expect(runs).toBeLessThanOrEqual(c.maxRuns);
      }),
    );
  });
});
