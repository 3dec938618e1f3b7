import { access, realpath } from 'node:fs/promises';
import { abortableDelay } from './abortable-delay.ts';

/** Resolves once `path` exists (a port plugged in again), looking every `intervalMs`; rejects on abort. */
export async function waitForPath(options: { path: string; intervalMs: number; signal: AbortSignal }): Promise<void> {
  for (;;) {
    options.signal.throwIfAborted();
    try {
      await access(options.path);
      return;
    } catch {
      // Absent for now (unplugged): look again after the interval.
      await abortableDelay(options.intervalMs, options.signal);
    }
  }
}

/** Where a port path leads now (a udev link, a pseudo-terminal); the path itself when it cannot be read. */
export function pathTarget(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/**
 * Watches an open port's path: serialport never closes a pseudo-terminal whose peer died, and a USB
 * adapter's node can vanish the same way, so a path that is gone, or leads to another device than
 * the one opened, means unplugged. `onLost` is called once; `stop` ends the watch (the owner's
 * close). The watch also ends by itself once `stillOpen` says the port closed.
 */
export class PortPathWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly options: {
      path: string;
      openedTarget: string;
      everyMs: number;
      stillOpen: () => boolean;
      onLost: () => void;
    },
  ) {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      realpath(this.options.path).then(
        (target) => this.check(target === this.options.openedTarget),
        () => this.check(false),
      );
    }, this.options.everyMs);
  }

  private check(present: boolean): void {
    if (this.stopped || !this.options.stillOpen()) return;
    if (present) return this.schedule();
    this.stopped = true;
    this.options.onLost();
  }
}
