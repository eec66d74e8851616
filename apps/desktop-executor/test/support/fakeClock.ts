/**
 * A clock and one timer that only move when the test says so.
 */
import type { Clock, TimerPort } from '../../src/tasks/Clock.js';

export interface FakeClock extends Clock, TimerPort {
  /** Moves time forward and fires the timer when it is due. */
  advance(ms: number): void;
  /** The armed deadline, or null. */
  deadline(): number | null;
}

export function fakeClock(start = 1_000_000): FakeClock {
  let now = start;
  let armed: { readonly at: number; readonly fire: () => void } | null = null;
  const fireIfDue = (): void => {
    if (armed !== null && armed.at <= now) {
      const { fire } = armed;
      armed = null;
      fire();
    }
  };
  return {
    now: () => now,
    set: (at, fire) => {
      armed = { at, fire };
      fireIfDue();
    },
    clear: () => void (armed = null),
    advance: (ms) => {
      now += ms;
      fireIfDue();
    },
    deadline: () => armed?.at ?? null,
  };
}
