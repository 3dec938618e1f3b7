import { ToolError } from '../../core/tools/tool-error.ts';

interface Waiter {
  grant(release: () => void): void;
  fail(error: ToolError): void;
}

/**
 * A FIFO lane that admits one call at a time: the port's single request in flight. Waiters that
 * abort leave the queue at once; `failAll` empties it (the device went offline).
 */
export class CallLane {
  private busy = false;
  private readonly waiters: Waiter[] = [];

  /** Resolves with a release function when it is this caller's turn; rejects `aborted` on abort. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted)
      return Promise.reject(new ToolError({ reason: 'aborted', detail: 'aborted while queued for the port' }));
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(new ToolError({ reason: 'aborted', detail: 'aborted while queued for the port' }));
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Rejects every queued caller with `error` (the one in flight is failed by its owner). */
  failAll(error: ToolError): void {
    for (const waiter of this.waiters.splice(0)) waiter.fail(error);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next === undefined) this.busy = false;
      else next.grant(this.releaser());
    };
  }
}
