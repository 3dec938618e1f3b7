import type { StateCreator } from 'zustand/vanilla';
import type { HostAgentEvent } from '../../host/contract/api-contract.ts';
import { emptyFoldedData, foldEvents, replaceConversation, type FoldedData } from './fold-event.ts';
import type { AppState } from './create-app-store.ts';

export type JournalStatus = 'loading' | 'loaded' | 'failed';

/** The folded view of host events (turns, batches, channels, approvals) and how far each conversation's journal is loaded. */
export interface EventsSlice extends FoldedData {
  journalStatus: Record<string, JournalStatus>;
  /** Folds live events into the view. */
  applyEvents(events: readonly HostAgentEvent[]): void;
  /** Rebuilds one conversation from its journal (the stored copy of the same events). */
  replaceConversationEvents(conversationId: string, events: readonly HostAgentEvent[]): void;
  setJournalStatus(conversationId: string, status: JournalStatus): void;
  /** Every journal counts as not loaded (events may have been missed while the link was down). */
  forgetJournals(): void;
}

export const createEventsSlice: StateCreator<AppState, [], [], EventsSlice> = (set) => ({
  ...emptyFoldedData,
  journalStatus: {},
  applyEvents: (events) => set((state) => foldedPart(foldEvents(state, events), state)),
  replaceConversationEvents: (conversationId, events) =>
    set((state) => ({
      ...foldedPart(replaceConversation(state, { conversationId, events }), state),
      journalStatus: { ...state.journalStatus, [conversationId]: 'loaded' },
    })),
  setJournalStatus: (conversationId, status) =>
    set((state) => ({ journalStatus: { ...state.journalStatus, [conversationId]: status } })),
  forgetJournals: () => set({ journalStatus: {} }),
});

/** Only the folded fields, and none at all when nothing changed (so no subscriber wakes up). */
function foldedPart(next: FoldedData, previous: FoldedData): Partial<FoldedData> {
  if (next === previous) return {};
  return {
    turns: next.turns,
    turnOrder: next.turnOrder,
    batches: next.batches,
    batchOrder: next.batchOrder,
    channelOutputs: next.channelOutputs,
    approvals: next.approvals,
    approvalKeys: next.approvalKeys,
  };
}
