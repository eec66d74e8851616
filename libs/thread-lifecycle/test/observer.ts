/**
 * An observer of a driven lifecycle, written from the rules rather than from the implementation: it
 * follows each thread through the events and the commands the machine emitted, and throws at the first
 * step that breaks a rule. Property tests feed it every step of random scripts.
 */
import type { LifecycleCommand, LifecycleConfig } from '../src/index.js';
import type { LifecycleEvent, ThreadId } from '../src/LifecycleEvent.js';
import { idleThreads } from '../src/ThreadLifecycle.js';
import type { DrivenStep } from '../src/testing.js';

interface Observed {
  subscribed: boolean;
  running: boolean;
  starting: boolean;
  /** When the thread became idle, while it is idle and subscribed. */
  idleSince: number | null;
  /** The order in which it became idle, for "oldest first". */
  idleOrder: number;
  archiveWhenDone: boolean;
}

const fresh = (): Observed => ({ subscribed: false, running: false, starting: false, idleSince: null, idleOrder: 0, archiveWhenDone: false });

const show = (value: unknown): string => JSON.stringify(value);

/** Follows one lifecycle; `check(step)` throws if the step breaks a rule. */
export class Observer {
  private readonly threads = new Map<ThreadId, Observed>();
  private order = 0;
  /** How many `Unsubscribe` commands were checked, by reason; lets tests see the rules were exercised. */
  readonly seen = { idle: 0, cap: 0, archive: 0, resume: 0, lateIdle: 0 };

  constructor(
    private readonly config: LifecycleConfig,
    /** The host fires its timer exactly at each deadline (so idle releases happen exactly then). */
    private readonly exactTimer: boolean,
  ) {}

  private get(id: ThreadId): Observed {
    let thread = this.threads.get(id);
    if (thread === undefined) {
      thread = fresh();
      this.threads.set(id, thread);
    }
    return thread;
  }

  private isIdle(thread: Observed): boolean {
    return thread.subscribed && thread.idleSince !== null;
  }

  private idleIds(): ThreadId[] {
    return [...this.threads]
      .filter(([, t]) => this.isIdle(t))
      .sort(([, a], [, b]) => a.idleOrder - b.idleOrder)
      .map(([id]) => id);
  }

  private unsubscribe(id: ThreadId, command: LifecycleCommand, now: number): void {
    const thread = this.get(id);
    if (!thread.subscribed) throw new Error(`Unsubscribe of ${id} twice without re-subscription at ${now}: ${show(command)}`);
    if (thread.running) throw new Error(`Unsubscribe of ${id} while its turn runs at ${now}: ${show(command)}`);
    this.threads.set(id, fresh());
  }

  check(step: DrivenStep): void {
    const { event, now, commands } = step;
    let rest = [...commands];

    if (event._tag === 'AppServerRestarted') {
      if (commands.length > 0) throw new Error(`restart emitted ${show(commands)}`);
      this.threads.clear();
      this.checkAfter(step);
      return;
    }

    // Deadlines first: every due idle thread, and only those, is released for `idle`.
    const due = this.idleIds().filter((id) => now >= (this.get(id).idleSince ?? Infinity) + this.config.idleTimeoutMs);
    const expired = rest.slice(0, due.length);
    if (show([...expired.map((c) => c.threadId)].sort()) !== show([...due].sort()) || expired.some((c) => c._tag !== 'Unsubscribe' || c.reason !== 'idle')) {
      throw new Error(`at ${now} expected idle releases of ${show(due)}, got ${show(commands)}`);
    }
    for (const command of expired) {
      const idleSince = this.get(command.threadId).idleSince ?? NaN;
      const deadline = idleSince + this.config.idleTimeoutMs;
      if (now < deadline) throw new Error(`${command.threadId} released before its idle timeout at ${now}`);
      if (this.exactTimer && now !== deadline) throw new Error(`${command.threadId} released at ${now}, not exactly at ${deadline}`);
      if (now > deadline) this.seen.lateIdle += 1;
      this.seen.idle += 1;
      this.unsubscribe(command.threadId, command, now);
    }
    rest = rest.slice(due.length);

    const expected = event._tag === 'Tick' ? [] : this.apply(event, now);
    if (show(rest) !== show(expected)) throw new Error(`${show(event)} at ${now}: expected ${show(expected)}, got ${show(rest)}`);
    this.checkAfter(step);
  }

  /** Applies a thread event to the observed threads and says which commands the rules call for. */
  private apply(event: Exclude<LifecycleEvent, { _tag: 'Tick' | 'AppServerRestarted' }>, now: number): LifecycleCommand[] {
    const id = event.threadId;
    const thread = this.get(id);
    const out: LifecycleCommand[] = [];
    switch (event._tag) {
      case 'TurnStarted':
        if (!thread.running) thread.archiveWhenDone = false;
        Object.assign(thread, { subscribed: true, running: true, starting: false, idleSince: null });
        break;
      case 'TurnCompleted':
        if (!thread.running && !thread.starting) break;
        if (thread.running && thread.archiveWhenDone) {
          thread.running = false;
          out.push({ _tag: 'Unsubscribe', threadId: id, reason: 'archive' });
          this.seen.archive += 1;
          this.unsubscribe(id, out[0]!, now);
          break;
        }
        Object.assign(thread, { running: false, starting: false, idleSince: now, idleOrder: ++this.order, archiveWhenDone: false });
        for (const oldest of this.idleIds().slice(0, Math.max(0, this.idleIds().length - this.config.maxIdleThreads))) {
          const command: LifecycleCommand = { _tag: 'Unsubscribe', threadId: oldest, reason: 'cap' };
          out.push(command);
          this.seen.cap += 1;
          this.unsubscribe(oldest, command, now);
        }
        break;
      case 'FollowUp':
        if (!thread.subscribed) {
          out.push({ _tag: 'Resume', threadId: id });
          this.seen.resume += 1;
        }
        Object.assign(thread, { subscribed: true, starting: !thread.running, idleSince: null, archiveWhenDone: false });
        break;
      case 'Archive':
        if (thread.running) thread.archiveWhenDone = true;
        else if (thread.subscribed) {
          const command: LifecycleCommand = { _tag: 'Unsubscribe', threadId: id, reason: 'archive' };
          out.push(command);
          this.seen.archive += 1;
          this.unsubscribe(id, command, now);
        }
        break;
      case 'Unsubscribed':
        break;
    }
    return out;
  }

  /** Invariants that hold between events. */
  private checkAfter(step: DrivenStep): void {
    const idle = this.idleIds();
    if (idle.length > this.config.maxIdleThreads) throw new Error(`${idle.length} idle subscribed threads after ${show(step.event)}`);
    for (const id of idle) {
      if (step.now >= (this.get(id).idleSince ?? NaN) + this.config.idleTimeoutMs) throw new Error(`${id} still subscribed past its idle timeout at ${step.now}`);
    }
    if (show(idleThreads(step.after)) !== show(idle)) {
      throw new Error(`machine's idle threads ${show(idleThreads(step.after))} differ from the observed ${show(idle)}`);
    }
  }
}
