import type { HostNotice } from '../contract/api-contract.ts';

/** Fan-out of host notices (changes outside a turn) to every front end; a failing listener is skipped. */
export class NoticeBus {
  private readonly listeners = new Set<(notice: HostNotice) => void>();

  subscribe(listener: (notice: HostNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(notice: HostNotice): void {
    for (const listener of this.listeners) {
      try {
        listener(notice);
      } catch {
        // One front end's failure must not stop the others hearing about the change.
      }
    }
  }
}
