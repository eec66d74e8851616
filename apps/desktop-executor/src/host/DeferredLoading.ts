/**
 * Deferred loading: the one reason behind the executor's dynamic `import()`s. The executor must answer its
 * host soon after Codex does (bench/README.md, "Cold start: where the time goes"), and on two cores every
 * module it loads before that competes with Codex's own start. What a first answer does not need — the
 * plugin machinery (sync transactions, the installed inventory and its management, connector
 * authorization) and the image codec — is imported where it is first used, so the bundle keeps it in
 * chunks of its own that load after the start (`test/coldStart.e2e.test.ts` checks what is loaded when
 * Codex is spawned). What only runs in the background (the plugin service's load, the bundled plugins'
 * check) starts once the executor is ready ({@link whenReady}): after its first answer.
 */
import type { Clock, Timer } from '@wework/ports';

/**
 * `load` run on the first call and its promise shared by every later call (a failed load stays failed).
 *
 * @example
 * const images = onFirstUse(() => import('@wework/image-preprocess/node').then(({ createTurnImageStore }) => createTurnImageStore({ root })));
 */
export function onFirstUse<A>(load: () => Promise<A>): () => Promise<A> {
  let loaded: Promise<A> | undefined;
  return () => (loaded ??= load());
}

/** How long after its composition an executor no host has asked anything yet counts as ready. */
export const READY_WITHOUT_HOST_MS = 1_000;

/** The moment the executor is ready, as {@link whenReady} tells it. */
export interface ReadyTrigger {
  /** Tells that a host request was answered; the first one makes the executor ready on the next timer tick. */
  readonly answered: () => void;
  /** Disarms it: `start` does not run (an executor disposed of before it was ready). */
  readonly cancel: () => void;
}

/**
 * Runs `start` once, when the executor is ready: right after its first answer to a host has been written
 * (the start's first answer never waits for what loads in the background), or `fallbackMs` after this
 * call when no host asked anything by then. `timer` is the executor's timer port; it fires `start` on a
 * later tick, never inside `answered`.
 */
export function whenReady(timer: Timer, clock: Clock, start: () => void, fallbackMs = READY_WITHOUT_HOST_MS): ReadyTrigger {
  let pending = true;
  const run = (): void => {
    if (!pending) return;
    pending = false;
    start();
  };
  timer.set(clock.now() + fallbackMs, run);
  return {
    answered: () => {
      if (pending) timer.set(clock.now(), run);
    },
    cancel: () => {
      pending = false;
      timer.clear();
    },
  };
}
