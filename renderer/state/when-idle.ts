/** Runs `run` when `page` is next idle (within a second), or in a task of its own where idle callbacks do not exist; returns the cancel. */
export function whenIdle(page: Window, run: () => void): () => void {
  if (typeof page.requestIdleCallback === 'function') {
    const handle = page.requestIdleCallback(run, { timeout: 1000 });
    return () => page.cancelIdleCallback(handle);
  }
  const handle = page.setTimeout(run, 0);
  return () => page.clearTimeout(handle);
}
