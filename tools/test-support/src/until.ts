/**
 * A bounded poll for tests: what the test waits for is named, so a wait that runs out says what never
 * happened instead of leaving the test to its timeout.
 */

/**
 * Polls `check` every 20 ms until it returns a value other than `undefined` or `false`, and resolves
 * with it; fails with `timed out waiting for <what>` after `timeoutMs`.
 *
 * @example
 * const card = await until('the strategy card', () => cards.find((shown) => shown.kind === 'strategy'), 30_000);
 */
export async function until<A>(what: string, check: () => A | undefined | false, timeoutMs: number): Promise<A> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
