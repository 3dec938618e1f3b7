import type { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';

/**
 * A turn the process was killed in has a `turn/start` and no `turn/end`. At start-up each such turn
 * gets its `turn/end` (aborted, with why), so every front end shows it as over — no live Stop
 * button, no approval still waiting for an answer nobody can receive.
 */
export function closeInterruptedTurns(store: SqliteConversationStore, now: () => number = Date.now): number {
  const unfinished = store.unfinishedTurns();
  for (const { conversationId, turnId } of unfinished) {
    store.appendEvent({
      type: 'turn/end',
      reason: 'aborted',
      error: 'Home Agent stopped during this turn, so it did not finish.',
      at: now(),
      conversationId,
      turnId,
    });
  }
  return unfinished.length;
}
