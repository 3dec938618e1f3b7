/** A set of listeners for one kind of event; a throwing listener becomes a process warning, never breaks the emitter. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Adds a listener; returns the function that removes it. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (error) {
        // A listener's bug must not stop the session's bookkeeping nor crash the app: surface it as a warning.
        process.emitWarning(
          `a device listener threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
    }
  }

  clear(): void {
    this.set.clear();
  }
}
