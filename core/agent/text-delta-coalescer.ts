/** How often, at most, streamed text becomes a `text/delta` event (and a journal row). */
export const TEXT_DELTA_INTERVAL_MS = 50;

/**
 * Passes streamed text on at most every `intervalMs`, joining what arrives in between: a reply of
 * thousands of tiny deltas becomes a few events a second (a few journal rows), while a person still
 * sees it grow live. The first text goes out at once; `flush` sends what is left.
 */
export class TextDeltaCoalescer {
  private pending = '';
  private lastSent = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (text: string) => void,
    private readonly intervalMs = TEXT_DELTA_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(text: string): void {
    this.pending += text;
    const wait = this.lastSent + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.lastSent = this.now();
    this.send(text);
  }
}
