/**
 * Request timeouts share one sleep of the client's timers: every deadline still fires on the first
 * advance of the clock that reaches it (never before, never on a later one), a cancelled one never
 * fires, and however many wait, at most one sleep is pending.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualTimers } from '@wework/ports/testing';
import { Deadlines, MAX_DELAY_MS, type Deadline } from '../src/internal/Delay.js';

/** Lets the woken sleeps and what they fire run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type Step = { readonly _tag: 'add'; readonly ms: number } | { readonly _tag: 'cancel'; readonly pick: number } | { readonly _tag: 'advance'; readonly ms: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ _tag: fc.constant('add' as const), ms: fc.oneof(fc.constantFrom(0, 10, 25, 60), fc.nat({ max: 100 })) }),
  fc.record({ _tag: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant('advance' as const), ms: fc.nat({ max: 40 }) }),
);

describe('Deadlines', () => {
  it('fire each deadline on the advance that reaches it, never a cancelled one, over at most one sleep', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { maxLength: 60 }), async (steps) => {
        const timers = manualTimers();
        const deadlines = new Deadlines(timers);
        const waiting: { readonly deadline: Deadline; firedAt: number | null; cancelled: boolean }[] = [];
        for (const step of steps) {
          if (step._tag === 'add') {
            const entry: { deadline: Deadline | null; firedAt: number | null; cancelled: boolean } = { deadline: null, firedAt: null, cancelled: false };
            entry.deadline = deadlines.add(step.ms, () => {
              expect(entry.firedAt).toBeNull();
              entry.firedAt = timers.now();
            });
            waiting.push(entry as { deadline: Deadline; firedAt: number | null; cancelled: boolean });
          } else if (step._tag === 'cancel') {
            const entry = waiting[step.pick % Math.max(1, waiting.length)];
            if (entry !== undefined && entry.firedAt === null) {
              deadlines.cancel(entry.deadline);
              entry.cancelled = true;
            }
          } else {
            const before = timers.now();
            timers.advance(step.ms);
            await settle();
            for (const entry of waiting) {
              if (entry.cancelled) expect(entry.firedAt).toBeNull();
              else if (entry.deadline.at <= timers.now()) {
                expect(entry.firedAt).not.toBeNull();
                // Fired on this advance if it fell due on it, else on an earlier one: never late.
                if (entry.deadline.at > before) expect(entry.firedAt).toBe(timers.now());
              } else expect(entry.firedAt).toBeNull();
            }
          }
          await settle();
          expect(timers.pending()).toBeLessThanOrEqual(1);
        }
        deadlines.close();
        await settle();
        expect(timers.pending()).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('fire a deadline added while another fires, and one past the longest sleep after several sleeps', async () => {
    const timers = manualTimers();
    const deadlines = new Deadlines(timers);
    const fired: string[] = [];
    deadlines.add(10, () => {
      fired.push('first');
      deadlines.add(5, () => fired.push('added'));
    });
    timers.advance(10);
    await settle();
    expect(fired).toEqual(['first']);
    timers.advance(5);
    await settle();
    expect(fired).toEqual(['first', 'added']);
    deadlines.add(MAX_DELAY_MS + 10, () => fired.push('far'));
    timers.advance(MAX_DELAY_MS);
    await settle();
    expect(fired).toEqual(['first', 'added']);
    expect(timers.pending()).toBe(1);
    timers.advance(10);
    await settle();
    expect(fired).toEqual(['first', 'added', 'far']);
    expect(timers.pending()).toBe(0);
  });

  it('fire nothing once closed', async () => {
    const timers = manualTimers();
    const deadlines = new Deadlines(timers);
    let fired = false;
    deadlines.add(10, () => (fired = true));
    deadlines.close();
    deadlines.add(5, () => (fired = true));
    timers.advance(20);
    await settle();
    expect(fired).toBe(false);
    expect(timers.pending()).toBe(0);
  });
});
