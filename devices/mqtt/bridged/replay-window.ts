/** Whether a signed message is fresh: refused when its time is off the clock by more than the window, or its nonce was seen. */
export type Freshness = { ok: true } | { ok: false; why: 'stale' | 'replayed' | 'busy'; detail: string };

/** How far a request's time may be from the bridge's clock (both ways: clocks of two machines differ). */
export const DEFAULT_REPLAY_WINDOW_MS = 30_000;

/**
 * Refuses a message signed at a time off the clock by more than `windowMs`, or carrying a nonce already
 * seen within it. A nonce is remembered until no message with it could still be fresh, so memory is
 * bounded by the messages of one window; past `maxRemembered` of them, new ones are refused (`busy`)
 * rather than forgetting a nonce early, which would let a replay through. Call it only for messages
 * whose signature checked: a stranger must not fill it.
 */
export class ReplayWindow {
  private readonly seen = new Map<string, number>();
  private readonly windowMs: number;
  private readonly maxRemembered: number;
  private readonly now: () => number;

  constructor(options: { windowMs?: number; maxRemembered?: number; now?: () => number } = {}) {
    this.windowMs = options.windowMs ?? DEFAULT_REPLAY_WINDOW_MS;
    this.maxRemembered = options.maxRemembered ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Admits (and remembers) a message of time `ts` (ms since the epoch) and `nonce`, or says why not. */
  admit(ts: number, nonce: string): Freshness {
    const now = this.now();
    this.forgetExpired(now);
    const offBy = ts - now;
    if (Math.abs(offBy) > this.windowMs)
      return {
        ok: false,
        why: 'stale',
        detail: `its time is ${Math.round(Math.abs(offBy) / 1000)} s ${offBy < 0 ? 'behind' : 'ahead of'} this clock (at most ${this.windowMs / 1000} s allowed; are both clocks set?)`,
      };
    if (this.seen.has(nonce)) return { ok: false, why: 'replayed', detail: 'its nonce was used already (a replay)' };
    if (this.seen.size >= this.maxRemembered)
      return {
        ok: false,
        why: 'busy',
        detail: `more than ${this.maxRemembered} requests within ${this.windowMs / 1000} s`,
      };
    // Fresh until ts + window by the clock; remembered until then (and at least a window from now).
    this.seen.set(nonce, Math.max(ts, now) + this.windowMs);
    return { ok: true };
  }

  private forgetExpired(now: number): void {
    for (const [nonce, until] of this.seen) if (until < now) this.seen.delete(nonce);
  }
}
