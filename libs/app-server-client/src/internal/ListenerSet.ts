/**
 * A small set of listeners whose failures never escape: a listener that throws is reported to
 * `onListenerError` and the others still run.
 */

/** Something that can be undone, like a subscription. */
export interface Disposable {
  /** Undoes it; calling it again does nothing. */
  dispose(): void;
}

/** Listeners of one event, called in subscription order. */
export class ListenerSet<A extends readonly unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  /** Adds a listener; disposing the result removes it. */
  add(listener: (...args: A) => void): Disposable {
    // Wrap so the same function can be added twice and removed independently.
    const entry = (...args: A): void => listener(...args);
    this.listeners.add(entry);
    return { dispose: () => void this.listeners.delete(entry) };
  }

  /** Calls every listener with the arguments. */
  emit(...args: A): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  /** Whether any listener is subscribed. */
  get size(): number {
    return this.listeners.size;
  }

  /** Removes every listener. */
  clear(): void {
    this.listeners.clear();
  }
}

/** The message of an unknown thrown value, for diagnostics. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
