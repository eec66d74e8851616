/**
 * The spec's idle-thread rule for a raw app-server client, so that the eight-tasks line compares the
 * executor with a client that keeps the same rules: one app-server keeps at most {@link MAX_IDLE_THREADS}
 * idle threads subscribed; when one more becomes idle, the oldest idle one is released
 * (`thread/unsubscribe`), and a released thread is resumed (`thread/resume`, carrying the task's
 * permission profile and approval policy) before its next turn. A thread that has had no turn yet
 * is not idle and never released (Codex has no rollout of it to resume).
 *
 * Every function here is pure.
 */

/** The spec's cap of idle threads per app-server. */
export const MAX_IDLE_THREADS = 4;

/** The threads of one app-server: the idle ones (oldest first) and the released ones. */
export interface SpecThreads {
  readonly idle: ReadonlyArray<string>;
  readonly released: ReadonlyArray<string>;
}

/** No thread idle, none released. */
export const noThreads: SpecThreads = { idle: [], released: [] };

/** A turn is about to start on `threadId`: it stops being idle, and `resume` says whether it must be resumed first. */
export function turnStarting(state: SpecThreads, threadId: string): { readonly state: SpecThreads; readonly resume: boolean } {
  const resume = state.released.includes(threadId);
  return { state: { idle: state.idle.filter((id) => id !== threadId), released: state.released.filter((id) => id !== threadId) }, resume };
}

/** A turn on `threadId` ended: it becomes the newest idle thread, and `release` names the oldest idle ones beyond `cap`. */
export function turnEnded(state: SpecThreads, threadId: string, cap = MAX_IDLE_THREADS): { readonly state: SpecThreads; readonly release: ReadonlyArray<string> } {
  const idle = [...state.idle.filter((id) => id !== threadId), threadId];
  const release = idle.slice(0, Math.max(0, idle.length - cap));
  return { state: { idle: idle.slice(release.length), released: [...state.released, ...release] }, release };
}
