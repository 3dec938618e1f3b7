// Late answers to hellos asked again are dropped quietly; a few ids are enough to remember.
const STALE_HELLO_IDS = 8;

/**
 * What a session knows about a device starting over on one connection: who waits for its next
 * `ready`, and which hellos it asked again (their late answers are expected, not problems).
 */
export class DeviceRestarts {
  private readonly waiters = new Set<() => void>();
  private readonly closeWaiters = new Set<() => void>();
  private readonly staleHellos = new Set<number>();
  private portClosed = false;

  /** The device said `ready`: wakes every waiter. */
  ready(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Calls `waiter` on the next `ready`; returns the function that stops waiting. */
  onReady(waiter: () => void): () => void {
    this.waiters.add(waiter);
    return () => this.waiters.delete(waiter);
  }

  /**
   * True when the device says `ready` before the port closes (`closed()`), false once it closed.
   * Every wait removes itself when it ends: a device restarting for hours leaves nothing behind.
   */
  nextRestart(): Promise<boolean> {
    if (this.portClosed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (restarted: boolean): void => {
        stopReady();
        this.closeWaiters.delete(onClose);
        resolve(restarted);
      };
      const onClose = (): void => finish(false);
      const stopReady = this.onReady(() => finish(true));
      this.closeWaiters.add(onClose);
    });
  }

  /** The connection's port closed: no restart will come on it. */
  closed(): void {
    this.portClosed = true;
    for (const wake of [...this.closeWaiters]) wake();
  }

  /** How many wait for a `ready` or a close (a diagnostic; zero between waits). */
  get waiting(): number {
    return this.waiters.size + this.closeWaiters.size;
  }

  /** Hello `id` was asked again: its answer, should it still come, is dropped quietly. */
  asked(id: number): void {
    this.staleHellos.add(id);
    for (const oldest of this.staleHellos) {
      if (this.staleHellos.size <= STALE_HELLO_IDS) break;
      this.staleHellos.delete(oldest);
    }
  }

  /** Whether a response with nobody waiting is the late answer of a hello asked again (forgotten once seen). */
  isLateHello(id: number): boolean {
    return this.staleHellos.delete(id);
  }

  /** A new connection: nothing of the last one applies. */
  reset(): void {
    this.staleHellos.clear();
    this.portClosed = false;
  }
}
