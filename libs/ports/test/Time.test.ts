import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeTimers } from '../src/node/index.js';
import { manualTimers } from '../src/testing.js';

/** One step of a run of deadlines on manual timers. */
type Step = { readonly _tag: 'Arm'; readonly ms: number } | { readonly _tag: 'Cancel'; readonly which: number } | { readonly _tag: 'Advance'; readonly ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ _tag: fc.constant('Arm' as const), ms: fc.integer({ min: -5, max: 50 }) }),
  fc.record({ _tag: fc.constant('Cancel' as const), which: fc.nat({ max: 20 }) }),
  fc.record({ _tag: fc.constant('Advance' as const), ms: fc.integer({ min: 0, max: 30 }) }),
);

describe('Timers.after', () => {
  it('on manual timers: fires once when its time comes, never before, never once cancelled', () => {
    const timers = manualTimers();
    const fired: string[] = [];
    timers.after(100, () => fired.push('a'));
    const cancelB = timers.after(100, () => fired.push('b'));
    timers.advance(99);
    expect(fired).toEqual([]);
    expect(timers.pending()).toBe(2);
    cancelB();
    timers.advance(1);
    expect(fired).toEqual(['a']);
    timers.advance(1_000);
    expect(fired).toEqual(['a']);
    expect(timers.pending()).toBe(0);
  });

  it('on manual timers: a deadline cancelled by one that fires before it in the same advance stays cancelled', () => {
    const timers = manualTimers();
    const fired: string[] = [];
    const cancels: Array<() => void> = [];
    timers.after(10, () => {
      fired.push('first');
      cancels[0]?.();
    });
    cancels.push(timers.after(10, () => fired.push('second')));
    timers.advance(10);
    expect(fired).toEqual(['first']);
  });

  it('on manual timers: one advance fires in order of due time, the clock reading each one\'s time, and what a firing arms when it is due by the end', () => {
    const timers = manualTimers();
    const fired: Array<[string, number]> = [];
    timers.after(80, () => fired.push(['late', timers.now()]));
    timers.after(50, () => {
      fired.push(['early', timers.now()]);
      timers.after(10, () => fired.push(['armed at 50', timers.now()]));
      timers.after(60, () => fired.push(['armed at 50, due 110', timers.now()]));
    });
    timers.advance(100);
    expect(fired).toEqual([
      ['early', 50],
      ['armed at 50', 60],
      ['late', 80],
    ]);
    expect(timers.now()).toBe(100);
    expect(timers.pending()).toBe(1);
  });

  it('on manual timers: a fire that throws does not stop the others; the clock reaches its end, then the first error is thrown', () => {
    const timers = manualTimers();
    const fired: string[] = [];
    timers.after(10, () => {
      throw new Error('first');
    });
    timers.after(20, () => {
      throw new Error('second');
    });
    timers.after(30, () => fired.push('third'));
    expect(() => timers.advance(50)).toThrow('first');
    expect(fired).toEqual(['third']);
    expect(timers.now()).toBe(50);
    expect(timers.pending()).toBe(0);
  });

  it('on manual timers: a deadline that re-arms itself at once ends the advance with an error instead of hanging', () => {
    const timers = manualTimers();
    const again = (): void => void timers.after(0, again);
    timers.after(0, again);
    expect(() => timers.advance(0)).toThrow(/re-arms itself/);
  });

  it('on manual timers, any run of arms, cancels and advances: each deadline fires exactly when it is due and not cancelled, at most once', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const timers = manualTimers();
        const armed: Array<{ readonly at: number; cancelled: boolean; firedAt: number | null; readonly cancel: () => void }> = [];
        let now = 0;
        for (const s of steps) {
          if (s._tag === 'Arm') {
            const entry: (typeof armed)[number] = { at: now + Math.max(0, s.ms), cancelled: false, firedAt: null, cancel: () => undefined };
            const cancel = timers.after(s.ms, () => {
              expect(entry.firedAt).toBeNull();
              expect(entry.cancelled).toBe(false);
              entry.firedAt = timers.now();
            });
            armed.push(Object.assign(entry, { cancel }));
          } else if (s._tag === 'Cancel') {
            const entry = armed[s.which];
            if (entry === undefined) continue;
            entry.cancel();
            if (entry.firedAt === null) entry.cancelled = true;
          } else {
            now += s.ms;
            timers.advance(s.ms);
            for (const entry of armed) {
              // Checked after every advance: so a due deadline fired in the first advance that reached its time.
              expect(entry.firedAt !== null).toBe(!entry.cancelled && entry.at <= now);
              if (entry.firedAt !== null) expect(entry.firedAt).toBe(entry.at);
            }
          }
        }
        expect(timers.pending()).toBe(armed.filter((entry) => !entry.cancelled && entry.firedAt === null).length);
      }),
      { numRuns: 500 },
    );
  });

  it('on Node: fires after its delay', async () => {
    const fired = await new Promise<number>((resolve) => {
      const armedAt = nodeTimers.now();
      nodeTimers.after(5, () => resolve(nodeTimers.now() - armedAt));
    });
    expect(fired).toBeGreaterThanOrEqual(4);
  });

  it('on Node: never fires once cancelled, and cancelling twice does nothing', async () => {
    let fired = false;
    const cancel = nodeTimers.after(1, () => (fired = true));
    cancel();
    cancel();
    await nodeTimers.sleep(20);
    expect(fired).toBe(false);
  });

  it('on Node: a delay past what setTimeout takes does not fire at once (it would, unclamped)', async () => {
    let fired = false;
    const cancel = nodeTimers.after(2 ** 40, () => (fired = true));
    await nodeTimers.sleep(20);
    cancel();
    expect(fired).toBe(false);
  });
});

describe('Timers.sleep', () => {
  it('on manual and Node timers: a sleep that ends leaves no listener on a signal that lives on', async () => {
    const manual = manualTimers();
    const lasting = new AbortController();
    const slept = manual.sleep(10, lasting.signal);
    manual.advance(10);
    await slept;
    await nodeTimers.sleep(1, lasting.signal);
    expect(getEventListeners(lasting.signal, 'abort')).toHaveLength(0);
  });

  it('on manual timers: an abort ends the sleep and its deadline', async () => {
    const timers = manualTimers();
    const controller = new AbortController();
    const slept = timers.sleep(10, controller.signal);
    controller.abort();
    await slept;
    expect(timers.pending()).toBe(0);
  });
});
