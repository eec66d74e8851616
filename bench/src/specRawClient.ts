/**
 * A raw app-server client that keeps the spec's thread rules (see `specThreads.ts`): at most four idle
 * threads subscribed, the oldest released with `thread/unsubscribe` when one more becomes idle, and
 * every `thread/resume` carrying the task's permission profile and approval policy, as the executor's
 * does for a task created without a permission mode (Full access, the spec's default: the profile and
 * granular approval policy come from `@wework/approval-policy`, as the executor's do). Like the
 * executor, a thread's first turn carries the same overrides, and its later turns, and a turn right after
 * a resume that carried them, omit them.
 */
import { DEFAULT_PERMISSION_MODE, permissionParams } from '@wework/approval-policy';
import { Methods } from '@wework/codex-protocol';
import type { LineClient } from './lineClient.js';
import { rawThread, rawTurn, resultOf, type Dirs } from './rawClient.js';
import { noThreads, turnEnded, turnStarting, type SpecThreads } from './specThreads.js';

/** What the thread calls of a task created without a permission mode carry (the executor's default, Full access). */
export const DEFAULT_TASK_PERMISSIONS: Readonly<Record<string, unknown>> = { ...permissionParams(DEFAULT_PERMISSION_MODE) };

/** The spec-keeping client over one initialized raw app-server. */
export class SpecRawClient {
  private state: SpecThreads = noThreads;
  private readonly unsubscribing = new Map<string, Promise<unknown>>();
  private readonly overridesSent = new Set<string>();

  constructor(
    private readonly client: LineClient,
    private readonly dirs: Dirs,
  ) {}

  /** Starts a thread as a task would (with its permissions); it counts as idle only once its first turn ended. */
  thread(): Promise<string> {
    return rawThread(this.client, this.dirs, DEFAULT_TASK_PERMISSIONS);
  }

  /** One turn on `threadId`, resuming it first when it was released. */
  async turn(threadId: string): Promise<void> {
    const starting = turnStarting(this.state, threadId);
    this.state = starting.state;
    if (starting.resume) {
      await this.unsubscribing.get(threadId);
      this.unsubscribing.delete(threadId);
      resultOf(await this.client.request(Methods.ThreadResume, { threadId, cwd: this.dirs.workspace, ...DEFAULT_TASK_PERMISSIONS }), 'thread/resume');
    }
    const first = !this.overridesSent.has(threadId);
    this.overridesSent.add(threadId);
    await rawTurn(this.client, threadId, first ? DEFAULT_TASK_PERMISSIONS : {});
    this.ended(threadId);
  }

  private ended(threadId: string): void {
    const ended = turnEnded(this.state, threadId);
    this.state = ended.state;
    for (const id of ended.release) this.unsubscribing.set(id, this.client.request(Methods.ThreadUnsubscribe, { threadId: id }).then((answer) => resultOf(answer, 'thread/unsubscribe')));
  }
}
