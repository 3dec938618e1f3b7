/** What an emitter does with a listener that throws: report it, then go on with the other listeners. */
export type ListenerErrorHandler<T> = (error: unknown, value: T) => void;

/**
 * A set of listeners for one kind of value, with the app's one error policy: a listener that throws
 * is reported (to `onListenerError`, else to the console with the emitter's name) and never stops
 * the emitter or the other listeners. `subscribe` returns the function that unsubscribes; the
 * subscriber owns it.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly options: { name: string; onListenerError?: ListenerErrorHandler<T> }) {}

  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(value: T): void {
    // A snapshot: a listener may unsubscribe itself (or another) while the value is delivered.
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.report(error, value);
      }
    }
  }

  /** How many listeners are subscribed (for tests of ownership: nothing may stay behind). */
  get size(): number {
    return this.listeners.size;
  }

  /** Drops every listener (the owner is being disposed). */
  clear(): void {
    this.listeners.clear();
  }

  private report(error: unknown, value: T): void {
    if (this.options.onListenerError) {
      try {
        this.options.onListenerError(error, value);
        return;
      } catch (reportError) {
        error = reportError;
      }
    }
    console.error(
      `home-agent: a ${this.options.name} listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}
