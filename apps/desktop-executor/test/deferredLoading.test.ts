import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { manualClock } from '@wework/ports/testing';
import { onFirstUse, READY_WITHOUT_HOST_MS, whenReady } from '../src/host/DeferredLoading.js';

describe('whenReady', () => {
  it('starts on the next timer tick after the first answer, never inside it', () => {
    const clock = manualClock(0);
    let started = 0;
    // The manual timer fires at once when due: `answered` arms it for now, so `start` runs in the tick that follows.
    const deferredTicks: Array<() => void> = [];
    const timer = { set: (_at: number, fire: () => void) => void deferredTicks.splice(0, deferredTicks.length, fire), clear: () => void deferredTicks.splice(0) };
    const ready = whenReady(timer, clock, () => started++);
    ready.answered();
    expect(started).toBe(0);
    deferredTicks[0]?.();
    expect(started).toBe(1);
  });

  it('starts after the fallback when no host asks anything, and only once', () => {
    const clock = manualClock(0);
    let started = 0;
    const ready = whenReady(clock, clock, () => started++);
    clock.advance(READY_WITHOUT_HOST_MS - 1);
    expect(started).toBe(0);
    clock.advance(1);
    expect(started).toBe(1);
    ready.answered();
    clock.advance(READY_WITHOUT_HOST_MS);
    expect(started).toBe(1);
  });

  it('never starts once cancelled', () => {
    const clock = manualClock(0);
    let started = 0;
    const ready = whenReady(clock, clock, () => started++, 10);
    ready.cancel();
    ready.answered();
    clock.advance(100);
    expect(started).toBe(0);
  });

  it('starts exactly once, whatever the answers, cancels and time in between (property)', () => {
    const step = fc.oneof(fc.constant({ _tag: 'Answer' as const }), fc.constant({ _tag: 'Cancel' as const }), fc.integer({ min: 0, max: 2_000 }).map((ms) => ({ _tag: 'Advance' as const, ms })));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        const clock = manualClock(0);
        let started = 0;
        let cancelled = false;
        const ready = whenReady(clock, clock, () => started++);
        for (const s of steps) {
          if (s._tag === 'Answer') ready.answered();
          else if (s._tag === 'Cancel') {
            if (started === 0) cancelled = true;
            ready.cancel();
          } else clock.advance(s.ms);
        }
        clock.advance(READY_WITHOUT_HOST_MS);
        expect(started).toBe(cancelled ? 0 : 1);
      }),
    );
  });
});

describe('onFirstUse', () => {
  it('loads once and shares the promise', async () => {
    let loads = 0;
    const load = onFirstUse(async () => ++loads);
    expect(await Promise.all([load(), load()])).toEqual([1, 1]);
    expect(loads).toBe(1);
  });
});
