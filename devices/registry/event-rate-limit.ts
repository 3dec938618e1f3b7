/** Events one device may send per second unless a setting says otherwise. */
export const DEFAULT_DEVICE_EVENTS_PER_SECOND = 20;

/**
 * A token bucket for one device's unsolicited events: up to `perSecond` at once, refilled at
 * `perSecond` a second. What it refuses is counted, never queued, so a device that floods the host
 * costs a counter, not a log line or a broadcast per event.
 */
export class EventRateLimit {
  private tokens: number;
  private last: number;
  private droppedValue = 0;

  constructor(private readonly options: { perSecond: number; now: () => number }) {
    this.tokens = options.perSecond;
    this.last = options.now();
  }

  /** Events refused so far. */
  get dropped(): number {
    return this.droppedValue;
  }

  /** True when the event may pass; false (and counted) when the device is over its rate. */
  take(): boolean {
    const now = this.options.now();
    const { perSecond } = this.options;
    this.tokens = Math.min(perSecond, this.tokens + ((now - this.last) / 1000) * perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    this.droppedValue += 1;
    return false;
  }
}
