/**
 * The executor's waiters over a supervisor whose status a test changes, on manual timers: a request
 * waits while restarting or starting and gets the new runtime once ready; `failed` meanwhile refuses it
 * (not retryable); the bound passing refuses it retryably; waiters beyond the limit are refused at once
 * (`-32011`) and the count goes back to zero; a runtime a request found ended counts as not ready; the
 * environment sets the longest wait and a bad value is refused without being echoed.
 */
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNTIME_WAIT } from '@wework/host-protocol';
import { manualTimers } from '@wework/ports/testing';
import type { Disposable } from '@wework/app-server-client';
import { runtimeFailure } from '@wework/host-errors';
import type { LocalRuntime } from '../src/runtime/LocalRuntime.js';
import type { RuntimeStatus } from '@wework/app-server-client/node';
import { unavailable } from '../src/runtime/RuntimeSupervisor.js';
import { MAX_RUNTIME_WAIT_MS, RUNTIME_WAIT_ENV, runtimeWaitFromEnv, runtimeWaiters, type WaitedRuntime } from '../src/runtime/RuntimeWaiters.js';

const base: RuntimeStatus = { state: 'ready', reason: null, exitCode: null, signal: null, stderrTail: null, crashes: 0, retryInMs: null, pid: 1 };
const runtimeNamed = (name: string): LocalRuntime => ({ name }) as unknown as LocalRuntime;

/** A supervisor whose state the test sets. */
function fakeSupervisor(first: LocalRuntime) {
  let status: RuntimeStatus = base;
  let current: LocalRuntime | null = first;
  const listeners = new Set<(status: RuntimeStatus) => void>();
  const supervisor: WaitedRuntime = {
    ready: () => (current === null ? E.left(unavailable(status)) : E.right(current)),
    status: () => status,
    onStatus: (listener): Disposable => {
      listeners.add(listener);
      return { dispose: () => void listeners.delete(listener) };
    },
  };
  return {
    supervisor,
    listeners: () => listeners.size,
    set(next: Partial<RuntimeStatus>, runtime: LocalRuntime | null) {
      status = { ...base, ...next };
      current = runtime;
      for (const listener of [...listeners]) listener(status);
    },
  };
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('runtimeWaiters', () => {
  it('answers at once while ready', async () => {
    const first = runtimeNamed('first');
    const fake = fakeSupervisor(first);
    const waiters = runtimeWaiters({ runtime: fake.supervisor, timers: manualTimers() });
    expect(await waiters.ready()).toEqual(E.right(first));
    expect(waiters.waiting()).toBe(0);
  });

  it('waits while restarting, and runs on the new runtime once ready', async () => {
    const fake = fakeSupervisor(runtimeNamed('first'));
    const timers = manualTimers();
    const waiters = runtimeWaiters({ runtime: fake.supervisor, timers });
    fake.set({ state: 'restarting', retryInMs: 500, crashes: 1, pid: null }, null);
    let answer: unknown;
    void waiters.ready().then((ready) => (answer = ready));
    await flush();
    timers.advance(499);
    await flush();
    expect(answer).toBeUndefined();
    expect(waiters.waiting()).toBe(1);
    const second = runtimeNamed('second');
    fake.set({ state: 'ready', crashes: 1, pid: 2 }, second);
    await flush();
    expect(answer).toEqual(E.right(second));
    expect(waiters.waiting()).toBe(0);
    expect(fake.listeners()).toBe(0);
    expect(timers.pending()).toBe(0);
  });

  it('a status that says ready without a process (a planned restart ending the old one) waits too', async () => {
    const fake = fakeSupervisor(runtimeNamed('first'));
    const timers = manualTimers();
    const waiters = runtimeWaiters({ runtime: fake.supervisor, timers });
    fake.set({ state: 'ready' }, null);
    let answer: unknown;
    void waiters.ready().then((ready) => (answer = ready));
    await flush();
    expect(answer).toBeUndefined();
    fake.set({ state: 'starting', pid: null }, null);
    await flush();
    expect(answer).toBeUndefined();
    const next = runtimeNamed('next');
    fake.set({ state: 'ready', pid: 3 }, next);
    await flush();
    expect(answer).toEqual(E.right(next));
  });

  it('failed meanwhile refuses the waiting request, not retryable', async () => {
    const fake = fakeSupervisor(runtimeNamed('first'));
    const waiters = runtimeWaiters({ runtime: fake.supervisor, timers: manualTimers() });
    fake.set({ state: 'restarting', retryInMs: 500, crashes: 4, pid: null }, null);
    const answer = waiters.ready();
    await flush();
    fake.set({ state: 'failed', reason: 'the app-server exited (code 1, signal null)', crashes: 5, pid: null }, null);
    const refused = await answer;
    expect(E.isLeft(refused) ? runtimeFailure(refused.left) : refused).toMatchObject({ code: -32012, tag: 'RuntimeUnavailable', retryable: false });
    expect(waiters.waiting()).toBe(0);
  });

  it('the bound passing refuses it, retryable, saying how long it waited', async () => {
    const fake = fakeSupervisor(runtimeNamed('first'));
    const timers = manualTimers();
    const waiters = runtimeWaiters({ runtime: fake.supervisor, timers, config: { ...DEFAULT_RUNTIME_WAIT, maxWaitMs: 10_000, startTimeoutMs: 2_000 } });
    fake.set({ state: 'restarting', retryInMs: 3_000, crashes: 1, pid: null }, null);
    let answer: E.Either<unknown, unknown> | undefined;
    void waiters.ready().then((ready) => (answer = ready));
    await flush();
    timers.advance(4_999);
    await flush();
    expect(answer).toBeUndefined();
    timers.advance(1);
    await flush();
    expect(answer !== undefined && E.isLeft(answer) ? runtimeFailure(answer.left as never) : answer).toMatchObject({
      code: -32012,
      tag: 'RuntimeUnavailable',
      retryable: true,
      message: expect.stringContaining('within 5000 ms'),
    });
    expect(waiters.waiting()).toBe(0);
    expect(fake.listeners()).toBe(0);
  });

  it('refuses requests beyond maxWaiting at once with -32011, and counts back to zero', async () => {
    const fake = fakeSupervisor(runtimeNamed('first'));
    const waiters = runtimeWaiters({ runtime: fake.supervisor, timers: manualTimers(), config: { ...DEFAULT_RUNTIME_WAIT, maxWaiting: 3 } });
    fake.set({ state: 'restarting', retryInMs: 500, crashes: 1, pid: null }, null);
    const waiting = [waiters.ready(), waiters.ready(), waiters.ready()];
    await flush();
    expect(waiters.waiting()).toBe(3);
    const refused = await waiters.ready();
    expect(E.isLeft(refused) ? runtimeFailure(refused.left) : refused).toMatchObject({ code: -32011, tag: 'TooManyWaiting', retryable: true });
    const back = runtimeNamed('back');
    fake.set({ state: 'ready', pid: 2 }, back);
    expect(await Promise.all(waiting)).toEqual([E.right(back), E.right(back), E.right(back)]);
    expect(waiters.waiting()).toBe(0);
  });

  it('a runtime the request found ended counts as not ready until another one is', async () => {
    const first = runtimeNamed('first');
    const fake = fakeSupervisor(first);
    const waiters = runtimeWaiters({ runtime: fake.supervisor, timers: manualTimers() });
    let answer: unknown;
    void waiters.ready(first).then((ready) => (answer = ready));
    await flush();
    expect(answer).toBeUndefined();
    fake.set({ state: 'restarting', retryInMs: 500, crashes: 1, pid: null }, null);
    await flush();
    expect(answer).toBeUndefined();
    const second = runtimeNamed('second');
    fake.set({ state: 'ready', crashes: 1, pid: 2 }, second);
    await flush();
    expect(answer).toEqual(E.right(second));
  });
});

describe('runtimeWaitFromEnv', () => {
  it('unset or empty is the default; a whole number in range sets the longest wait', () => {
    expect(runtimeWaitFromEnv({})).toEqual(E.right(DEFAULT_RUNTIME_WAIT));
    expect(runtimeWaitFromEnv({ [RUNTIME_WAIT_ENV]: '' })).toEqual(E.right(DEFAULT_RUNTIME_WAIT));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_RUNTIME_WAIT_MS }), (ms) => {
        expect(runtimeWaitFromEnv({ [RUNTIME_WAIT_ENV]: String(ms) })).toEqual(E.right({ ...DEFAULT_RUNTIME_WAIT, maxWaitMs: ms }));
      }),
    );
  });

  it('anything else is refused without echoing the value', () => {
    const outOfRange = fc.integer({ min: MAX_RUNTIME_WAIT_MS + 1, max: 10_000_000 }).map(String);
    const notANumber = fc.string({ minLength: 1 }).filter((raw) => !/^[0-9]+$/.test(raw));
    fc.assert(
      fc.property(fc.oneof(outOfRange, notANumber, fc.constantFrom('1.5', '-1', ' 10', '1e3', '0x10')), (raw) => {
        const rule = runtimeWaitFromEnv({ [RUNTIME_WAIT_ENV]: `${raw}SECRETMARK` });
        expect(E.isLeft(rule)).toBe(true);
        if (E.isLeft(rule)) expect(rule.left).not.toContain('SECRETMARK');
        expect(E.isLeft(runtimeWaitFromEnv({ [RUNTIME_WAIT_ENV]: raw }))).toBe(true);
      }),
    );
  });
});
