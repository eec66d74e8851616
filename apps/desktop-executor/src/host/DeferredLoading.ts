/**
 * Deferred loading: the one reason behind the executor's dynamic `import()`s. The executor must answer its
 * host soon after Codex does (bench/README.md, "Cold start: where the time goes"), and on two cores every
 * module it loads before that competes with Codex's own start. What a first answer does not need — the
 * plugin machinery (sync transactions, the installed inventory and its management, connector
 * authorization) and the image codec — is imported where it is first used, so the bundle keeps it in
 * chunks of its own that load after the start (`test/coldStart.e2e.test.ts` checks what is loaded when
 * Codex is spawned).
 */

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
