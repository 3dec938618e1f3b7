import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/**
 * Quiet time after the last change to the config file before it is read again: an editor's save
 * is several events (write a copy, rename it over the file), read once when they are over.
 */
export const MCP_CONFIG_SETTLE_MS = 250;

/**
 * Tells `changed` when an MCP config file may have changed: it watches the file's folder (editors
 * replace a file by renaming another over it, which a watch on the file itself would lose) and
 * waits until the events have settled. It owns its watcher and its timer: `dispose` ends both. A
 * watch that fails is logged once and the file is no longer followed; the app goes on.
 */
export class McpConfigWatch {
  private watcher: FSWatcher | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly options: {
      file: string;
      changed: () => void;
      log: (line: string) => void;
      settleMs?: number;
    },
  ) {}

  /** Starts watching (once). */
  start(): void {
    if (this.watcher !== undefined || this.disposed) return;
    const file = path.resolve(this.options.file);
    const name = path.basename(file);
    try {
      // Not persistent: following the file never keeps the process alive.
      this.watcher = watch(path.dirname(file), { persistent: false }, (_event, changed) => {
        // Some platforms do not say which file changed: then it may be ours.
        if (changed === null || changed.toString() === name) this.schedule();
      });
      this.watcher.on('error', (error) => this.stopWatching(file, error));
    } catch (error) {
      this.stopWatching(file, error);
    }
  }

  /** Stops watching; a pending read is dropped. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.disposed) this.options.changed();
    }, this.options.settleMs ?? MCP_CONFIG_SETTLE_MS);
  }

  private stopWatching(file: string, error: unknown): void {
    this.watcher?.close();
    this.watcher = undefined;
    const why = error instanceof Error ? error.message : String(error);
    this.options.log(`${file} is no longer followed (${why}): restart Home Agent to apply changes to it`);
  }
}
