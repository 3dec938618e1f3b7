import { MAX_PROGRESS_MESSAGE_CHARS } from '../events/agent-event.ts';
import type { ToolProgress } from '../tools/tool-definition.ts';

/** The most `tool/progress` events one call emits a second: a server may notify far faster than anyone reads. */
export const MAX_PROGRESS_PER_SECOND = 10;

/** A call's progress reports, thinned out for the front ends; `end` drops what is still held. */
export interface ProgressReporter {
  report(update: ToolProgress): void;
  end(): void;
}

/**
 * Passes a call's progress on at most MAX_PROGRESS_PER_SECOND times a second: the first at once, and
 * of those that come faster only the latest, when its turn comes (so the last word is never lost
 * while the call runs). A message is cut to MAX_PROGRESS_MESSAGE_CHARS; a non-finite number is dropped.
 */
export function progressReporter(send: (update: ToolProgress) => void): ProgressReporter {
  const intervalMs = 1000 / MAX_PROGRESS_PER_SECOND;
  let lastSentAt = -Infinity;
  let held: ToolProgress | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;
  const flush = (): void => {
    timer = undefined;
    if (held === undefined || ended) return;
    const update = held;
    held = undefined;
    lastSentAt = performance.now();
    send(update);
  };
  return {
    report(update) {
      if (ended || !Number.isFinite(update.progress)) return;
      held = {
        progress: update.progress,
        ...(update.total !== undefined && Number.isFinite(update.total) ? { total: update.total } : {}),
        ...(typeof update.message === 'string' ? { message: update.message.slice(0, MAX_PROGRESS_MESSAGE_CHARS) } : {}),
      };
      if (timer !== undefined) return;
      const wait = lastSentAt + intervalMs - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    end() {
      ended = true;
      held = undefined;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
