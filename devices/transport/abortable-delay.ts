/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. The timer is always cleared.
 * A delay of 0 (or less) waits one turn of the event loop (setImmediate), not a timer: Node clamps
 * setTimeout to at least 1 ms, which would make a device simulated at 0 ms latency answer in 1 ms.
 */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = (): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const cancel =
      ms > 0 ? clearTimeout.bind(null, setTimeout(done, ms)) : clearImmediate.bind(null, setImmediate(done));
    function onAbort(): void {
      cancel();
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
