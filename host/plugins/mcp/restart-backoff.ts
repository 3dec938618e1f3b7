/** The first wait before a failed server is started again. */
export const FIRST_RESTART_DELAY_MS = 1_000;
/** The longest wait: a server that keeps failing is tried once a minute, not in a loop. */
export const MAX_RESTART_DELAY_MS = 60_000;
/** A connection that stayed up this long starts its next failures from the first wait again. */
export const STABLE_CONNECTION_MS = 60_000;

/**
 * When to start a failed server again: 1 s, 2 s, 4 s … doubling to at most 60 s, so a server that
 * exits at once costs one start a minute at worst. A connection that lasted 60 s resets the count.
 */
export class RestartBackoff {
  private failures = 0;
  private readyAt: number | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The server is connected and ready. */
  ready(): void {
    this.readyAt = this.now();
  }

  /** The server failed (to start, or later): how long to wait before the next start. */
  failed(): number {
    if (this.readyAt !== undefined && this.now() - this.readyAt >= STABLE_CONNECTION_MS) this.failures = 0;
    this.readyAt = undefined;
    const delay = Math.min(FIRST_RESTART_DELAY_MS * 2 ** Math.min(this.failures, 16), MAX_RESTART_DELAY_MS);
    this.failures += 1;
    return delay;
  }
}
