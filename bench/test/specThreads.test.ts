import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_IDLE_THREADS, noThreads, turnEnded, turnStarting, type SpecThreads } from '../src/specThreads.js';

const endAll = (state: SpecThreads, ids: ReadonlyArray<string>): { state: SpecThreads; released: string[] } => {
  const released: string[] = [];
  for (const id of ids) {
    const ended = turnEnded(state, id);
    state = ended.state;
    released.push(...ended.release);
  }
  return { state, released };
};

describe('the spec-keeping raw client’s idle threads', () => {
  it('keeps four idle threads and releases the oldest when a fifth becomes idle', () => {
    const { state, released } = endAll(noThreads, ['t0', 't1', 't2', 't3', 't4']);
    expect(released).toEqual(['t0']);
    expect(state.idle).toEqual(['t1', 't2', 't3', 't4']);
    expect(state.released).toEqual(['t0']);
  });

  it('resumes a released thread before its turn, and only a released one', () => {
    const { state } = endAll(noThreads, ['t0', 't1', 't2', 't3', 't4']);
    expect(turnStarting(state, 't0')).toEqual({ state: { idle: ['t1', 't2', 't3', 't4'], released: [] }, resume: true });
    expect(turnStarting(state, 't2')).toEqual({ state: { idle: ['t1', 't3', 't4'], released: ['t0'] }, resume: false });
  });

  it('in rounds of eight turns at once, releases four threads after each round and resumes them in the next', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `t${i}`);
    // Eight new threads are not idle: the first round resumes none.
    let { state } = endAll(noThreads, []);
    for (let round = 0; round < 3; round++) {
      let resumed = 0;
      for (const id of ids) {
        const starting = turnStarting(state, id);
        state = starting.state;
        if (starting.resume) resumed++;
      }
      expect(resumed).toBe(round === 0 ? 0 : 4);
      const ended = endAll(state, ids);
      state = ended.state;
      expect(ended.released).toHaveLength(4);
    }
  });

  it('never holds more idle threads than the cap, and no thread both idle and released', () => {
    // Each step picks one of ten new threads: a running one ends its turn, any other starts one.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 80 }), (picks) => {
        let state = noThreads;
        const running = new Set<string>();
        for (const pick of picks) {
          const id = `t${pick}`;
          if (running.has(id)) {
            running.delete(id);
            state = turnEnded(state, id).state;
          } else {
            running.add(id);
            state = turnStarting(state, id).state;
          }
          expect(state.idle.length).toBeLessThanOrEqual(MAX_IDLE_THREADS);
          expect(state.idle.filter((idle) => state.released.includes(idle))).toEqual([]);
          expect(new Set(state.released).size).toBe(state.released.length);
          expect(state.idle.length + state.released.length + running.size).toBeLessThanOrEqual(10);
        }
      }),
    );
  });
});
