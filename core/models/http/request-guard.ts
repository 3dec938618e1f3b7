/** Why the guard stopped the request, when it did. */
export type GuardStop = 'aborted' | 'first_byte_timeout' | 'idle_timeout';

/**
 * Owns one model request's AbortController, its timer and its link to the caller's signal.
 * Whatever stops the request (caller abort, first-byte or idle timeout) aborts `signal`, which
 * fetch and the body reader obey at once; `stopped` says which. `dispose` releases everything.
 */
export class RequestGuard {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stop: GuardStop | undefined;
  private readonly onCallerAbort = (): void => this.halt('aborted');

  constructor(private readonly callerSignal: AbortSignal) {
    if (callerSignal.aborted) this.halt('aborted');
    else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): GuardStop | undefined {
    return this.stop;
  }

  /** (Re)starts the single timer: when it fires the request stops with `kind`. */
  arm(kind: 'first_byte_timeout' | 'idle_timeout', ms: number): void {
    this.disarm();
    this.timer = setTimeout(() => this.halt(kind), ms);
  }

  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Waits `ms` unless the request stops first (then it rejects). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.signal.aborted) {
        reject(this.signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timeout);
        reject(this.signal.reason);
      };
      const timeout = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  dispose(): void {
    this.disarm();
    this.callerSignal.removeEventListener('abort', this.onCallerAbort);
  }

  private halt(kind: GuardStop): void {
    if (this.stop !== undefined) return;
    this.stop = kind;
    this.disarm();
    this.controller.abort(new Error(`model request stopped: ${kind}`));
  }
}
