import { ToolError } from '../../core/tools/tool-error.ts';
import type { ResponseFrame } from '../protocol/frame-schema.ts';

interface Pending {
  settle(frame: ResponseFrame): void;
  fail(error: ToolError): void;
}

/** How many stopped requests a session remembers the ids of (a late answer comes soon after, or never). */
const STOPPED_REMEMBERED = 64;

/**
 * The requests of one session awaiting their response by id, each with its own timeout and abort.
 * It remembers the ids of the last requests stopped by their caller: a device that answers one of
 * them later does what it was asked to, and that answer is expected, not a stray frame.
 */
export class PendingRequests {
  private readonly byId = new Map<number, Pending>();
  private readonly stopped = new Set<number>();

  get size(): number {
    return this.byId.size;
  }

  /** Registers request `id`; the promise settles with its response, or rejects `timeout`/`aborted`/whatever `failAll` says. */
  wait(id: number, options: { timeoutMs: number; signal?: AbortSignal; label: string }): Promise<ResponseFrame> {
    const { signal } = options;
    if (signal?.aborted)
      return Promise.reject(new ToolError({ reason: 'aborted', detail: `${options.label}: aborted` }));
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.byId.delete(id);
      };
      const onAbort = (): void => {
        cleanup();
        this.remember(id);
        reject(new ToolError({ reason: 'aborted', detail: `${options.label}: aborted` }));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new ToolError({
            reason: 'timeout',
            detail: `${options.label}: no answer within ${options.timeoutMs} ms`,
            hint: 'the device may be busy or silent; try again later',
          }),
        );
      }, options.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.byId.set(id, {
        settle: (frame) => {
          cleanup();
          resolve(frame);
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      });
    });
  }

  /** Hands a response to its waiter; false when nobody waits for that id (late or unknown). */
  settle(frame: ResponseFrame): boolean {
    const pending = this.byId.get(frame.id);
    if (pending === undefined) return false;
    pending.settle(frame);
    return true;
  }

  /** Whether `id` is a request its caller stopped (each such late answer is taken once). */
  answersStopped(id: number): boolean {
    return this.stopped.delete(id);
  }

  /** Fails one waiter (e.g. its write failed). */
  fail(id: number, error: ToolError): void {
    this.byId.get(id)?.fail(error);
  }

  private remember(id: number): void {
    this.stopped.add(id);
    // Oldest first out: a device that never answers must not grow this for ever.
    if (this.stopped.size > STOPPED_REMEMBERED) this.stopped.delete(this.stopped.values().next().value as number);
  }

  /** Fails every waiter at once (the port closed). */
  failAll(error: ToolError): void {
    for (const pending of [...this.byId.values()]) pending.fail(error);
  }
}
