import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { ConnectionActivity } from '@wework/app-server-client';
import { nodeTimers } from '@wework/ports/node';
import { manualTimers } from '@wework/ports/testing';
import { mutationGate } from '../src/plugins/MutationGate.js';

const idle: ConnectionActivity = { requestsInFlight: [], serverRequestsPending: [], activeTurns: [] };
const busy: ConnectionActivity = { ...idle, activeTurns: [{ threadId: 't', turnId: 'u' }] };

/** A promise and its resolver. */
const deferred = <A = void>() => {
  let resolve!: (value: A) => void;
  const promise = new Promise<A>((r) => (resolve = r));
  return { promise, resolve };
};

describe('the mutation gate', () => {
  it('a mutation waits for running work; work that arrives while it waits starts at once', async () => {
    const gate = mutationGate({ activity: () => idle, timers: nodeTimers, pollMs: 5, maxWaitMs: 60_000 });
    const events: string[] = [];
    const first = deferred();
    const turn1 = gate.work(async () => {
      events.push('turn 1 started');
      await first.promise;
      events.push('turn 1 ended');
    });
    const mutation = gate.mutate(async () => {
      events.push('mutation ran');
      return 'done';
    });
    // Not delayed by the waiting mutation.
    await gate.work(async () => void events.push('turn 2 ran'));
    expect(events).toEqual(['turn 1 started', 'turn 2 ran']);
    first.resolve();
    await turn1;
    expect(await mutation).toEqual(E.right('done'));
    expect(events).toEqual(['turn 1 started', 'turn 2 ran', 'turn 1 ended', 'mutation ran']);
  });

  it('work that arrives while a mutation runs waits for it; mutations run one at a time in order', async () => {
    const gate = mutationGate({ activity: () => idle, timers: nodeTimers, pollMs: 5, maxWaitMs: 60_000 });
    const events: string[] = [];
    const release = deferred();
    const started = deferred();
    const m1 = gate.mutate(async () => {
      events.push('m1 started');
      started.resolve();
      await release.promise;
      events.push('m1 ended');
    });
    const m2 = gate.mutate(async () => void events.push('m2 ran'));
    await started.promise;
    const turn = gate.work(async () => void events.push('turn ran'));
    release.resolve();
    await Promise.all([m1, m2, turn]);
    expect(events.slice(0, 2)).toEqual(['m1 started', 'm1 ended']);
    expect(events).toContain('m2 ran');
    expect(events.indexOf('turn ran')).toBeGreaterThan(events.indexOf('m1 ended'));
  });

  it('waits for Codex activity too, and gives up after its bound without running', async () => {
    const timers = manualTimers();
    /** Lets the gate run until it sleeps (it polls the activity). */
    const untilSleeping = async (): Promise<void> => {
      for (let i = 0; i < 100 && timers.pending() === 0; i++) await Promise.resolve();
      expect(timers.pending()).toBe(1);
    };
    let activity = busy;
    const gate = mutationGate({ activity: () => activity, timers, pollMs: 5, maxWaitMs: 60_000 });
    let ran = false;
    const mutation = gate.mutate(async () => void (ran = true));
    await untilSleeping();
    timers.advance(5);
    await untilSleeping();
    expect(ran).toBe(false);
    activity = idle;
    timers.advance(5);
    expect(E.isRight(await mutation)).toBe(true);
    expect(ran).toBe(true);

    const bounded = mutationGate({ activity: () => busy, timers, pollMs: 5, maxWaitMs: 10 });
    let never = false;
    const refused = bounded.mutate(async () => void (never = true));
    await untilSleeping();
    timers.advance(5);
    await untilSleeping();
    timers.advance(5);
    expect(await refused).toMatchObject({ left: { _tag: 'MutationGateTimedOut', waitedMs: 10 } });
    expect(never).toBe(false);
  });
});
