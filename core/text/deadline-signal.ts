/**
 * A signal that aborts after `timeoutMs` (a `TimeoutError`, as `AbortSignal.timeout`'s), for use
 * inside `AbortSignal.any`. `AbortSignal.timeout` cannot be: `any` holds its sources weakly, and on
 * Node 20 a timeout signal nothing else refers to is collected before it fires, so the wait it
 * bounded silently lasts until the caller's own signal. Here the timer holds the signal until it
 * fires; the timer does not keep the process alive.
 */
export function deadlineSignal(timeoutMs: number): AbortSignal {
  const controller = new AbortController();
  const timer: unknown = setTimeout(
    () => controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  // Node's timers have unref (a browser's are numbers): a deadline alone never holds a process open.
  (timer as { unref?: () => void }).unref?.();
  return controller.signal;
}
