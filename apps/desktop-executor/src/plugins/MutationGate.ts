/**
 * The per-home mutation gate: cache and configuration mutations of the plugin homes (sync
 * transactions and the reload or restart that follows) wait until no turn runs and no request to
 * Codex — nor a card from it — is in flight; turns wait only while a mutation actually runs.
 *
 * A mutation that is waiting delays nothing: a `message/send` that arrives meanwhile starts at once
 * (and the mutation goes on waiting for it). Mutations run one at a time, in the order they arrived.
 * The wait is bounded: after `maxWaitMs` the mutation is not run (`MutationGateTimedOut`).
 */
import * as E from 'fp-ts/lib/Either.js';
import { isIdleActivity, type ConnectionActivity } from '@wework/app-server-client';
import type { Timers } from '@wework/ports';

/** A mutation waited longer than the gate's bound for running work to end; it did not run. */
export interface MutationGateTimedOut {
  readonly _tag: 'MutationGateTimedOut';
  readonly waitedMs: number;
}

/** The gate of one executor home. */
export interface MutationGate {
  /** Runs live work (a turn): at once, or after the mutation that is running now. */
  work<A>(run: () => Promise<A>): Promise<A>;
  /** Runs a mutation once no work runs and Codex is idle, after the mutations before it. */
  mutate<A>(run: () => Promise<A>): Promise<E.Either<MutationGateTimedOut, A>>;
}

/** What the gate needs. */
export interface MutationGateOptions {
  /** What the app-server connection is busy with now. */
  readonly activity: () => ConnectionActivity;
  readonly timers: Timers;
  /** How often the Codex activity is looked at while a mutation waits; default 50 ms. */
  readonly pollMs?: number;
  /** How long a mutation waits at most. */
  readonly maxWaitMs: number;
}

/** A gate over the app-server's activity. */
export function mutationGate(options: MutationGateOptions): MutationGate {
  const pollMs = options.pollMs ?? 50;
  let working = 0;
  let running: Promise<unknown> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  /** Wakes the waiting mutation early when work ends. */
  let wake: (() => void) | null = null;

  const work: MutationGate['work'] = async (run) => {
    while (running !== null) await running.catch(() => undefined);
    working += 1;
    try {
      return await run();
    } finally {
      working -= 1;
      wake?.();
    }
  };

  const idle = (): boolean => working === 0 && isIdleActivity(options.activity());

  const admitted = async (): Promise<E.Either<MutationGateTimedOut, void>> => {
    const started = options.timers.now();
    while (!idle()) {
      const waited = options.timers.now() - started;
      if (waited >= options.maxWaitMs) return E.left({ _tag: 'MutationGateTimedOut', waitedMs: waited });
      const abort = new AbortController();
      wake = () => abort.abort();
      await options.timers.sleep(Math.min(pollMs, options.maxWaitMs - waited), abort.signal);
      wake = null;
    }
    return E.right(undefined);
  };

  const mutate: MutationGate['mutate'] = <A>(run: () => Promise<A>) => {
    const turn = queue.then(async (): Promise<E.Either<MutationGateTimedOut, A>> => {
      // Idle checked again and marked running in one synchronous step: no work can start in between.
      for (;;) {
        const gate = await admitted();
        if (E.isLeft(gate)) return gate;
        if (idle()) break;
      }
      const mutation = run();
      running = mutation;
      try {
        return E.right(await mutation);
      } finally {
        running = null;
      }
    });
    queue = turn.catch(() => undefined);
    return turn;
  };

  return { work, mutate };
}

/** A gate that never waits (an executor whose plugins no background work mutates). */
export const openGate: MutationGate = {
  work: (run) => run(),
  mutate: async (run) => E.right(await run()),
};
