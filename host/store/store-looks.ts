/**
 * Looks at the store every `pollMs` for what other processes changed (`check`), on a timer that
 * never keeps the process alive. A look that fails (a locked or failing store) must not stop the
 * host: it is logged as "could not read WHAT" and the next look tries again. Returns the stop.
 */
export function startStoreLooks(options: {
  check: () => void;
  pollMs: number;
  /** What is read, for the log (`the paired devices`). */
  what: string;
  log: (line: string) => void;
}): () => void {
  const timer = setInterval(() => {
    try {
      options.check();
    } catch (error) {
      options.log(`could not read ${options.what}: ${(error as Error).message}`);
    }
  }, options.pollMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
