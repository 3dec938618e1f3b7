import type { TransportClose } from '../transport/line-transport.ts';

// Late answers to hellos asked again are dropped quietly; a few ids are enough to remember.
const STALE_HELLO_IDS = 8;

/**
 * What a session knows about a device starting over on one connection: who waits for its next
 * `ready`, and which hellos it asked again (their late answers are expected, not problems).
 */
export class DeviceRestarts {
  private readonly waiters = new Set<() => void>();
  private readonly staleHellos = new Set<number>();

  /** The device said `ready`: wakes every waiter. */
  ready(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Calls `waiter` on the next `ready`; returns the function that stops waiting. */
  onReady(waiter: () => void): () => void {
    this.waiters.add(waiter);
    return () => this.waiters.delete(waiter);
  }

  /** True when the device says `ready` before the port closes. */
  restartedBefore(closed: Promise<TransportClose>): Promise<boolean> {
    return new Promise((resolve) => {
      const stop = this.onReady(() => {
        stop();
        resolve(true);
      });
      void closed.then(() => {
        stop();
        resolve(false);
      });
    });
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
  }
}
