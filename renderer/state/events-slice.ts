import type { StateCreator } from 'zustand/vanilla';
import type { HostAgentEvent } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import {
  emptyFoldedData,
  foldEvents,
  prependConversation,
  replaceConversation,
  type FoldedData,
} from './fold-event.ts';
import type { AppState } from './create-app-store.ts';
import { messageOf } from './message-of.ts';

/** How many older turns one look-back reads. */
const OLDER_PAGE_TURNS = 40;

export type JournalStatus = 'loading' | 'loaded' | 'failed';

/** The folded view of host events (turns, batches, channels, approvals) and how far each conversation's journal is loaded. */
export interface EventsSlice extends FoldedData {
  journalStatus: Record<string, JournalStatus>;
  /** Per conversation whose journal was read from the middle: where its older page ends (absent: all read). */
  journalBefore: Record<string, number>;
  /** Per conversation: an older page is being read. */
  loadingOlder: Record<string, true>;
  /** Folds live events into the view. */
  applyEvents(events: readonly HostAgentEvent[]): void;
  /**
   * Rebuilds one conversation from its journal (the stored copy of the same events), or from its
   * newest page: `batchesBefore` batches precede it, and `before` reads the page older than it.
   */
  replaceConversationEvents(
    conversationId: string,
    events: readonly HostAgentEvent[],
    page?: { batchesBefore: number; before?: number },
  ): void;
  /** Reads the next older page of a conversation's journal and puts it before what is shown. */
  loadOlderEvents(conversationId: string): Promise<void>;
  setJournalStatus(conversationId: string, status: JournalStatus): void;
  /** Every journal counts as not loaded (events may have been missed while the link was down). */
  forgetJournals(): void;
}

export function createEventsSlice(api: ApiClient): StateCreator<AppState, [], [], EventsSlice> {
  return (set, get) => ({
    ...emptyFoldedData,
    journalStatus: {},
    journalBefore: {},
    loadingOlder: {},
    applyEvents: (events) => set((state) => foldedPart(foldEvents(state, events), state)),
    replaceConversationEvents: (conversationId, events, page) =>
      set((state) => ({
        ...mergePage(state, { conversationId, events, page }, replaceConversation),
        journalStatus: { ...state.journalStatus, [conversationId]: 'loaded' },
      })),
    async loadOlderEvents(conversationId) {
      const before = get().journalBefore[conversationId];
      if (before === undefined || get().loadingOlder[conversationId]) return;
      set((state) => ({ loadingOlder: { ...state.loadingOlder, [conversationId]: true } }));
      try {
        const { events, page } = await api.call('conversations/events', {
          conversationId,
          page: { turns: OLDER_PAGE_TURNS, before },
        });
        // The conversation was read again meanwhile (a reconnect): this page belongs to the old reading.
        if (get().journalBefore[conversationId] !== before) return;
        set((state) => mergePage(state, { conversationId, events, page }, prependConversation));
      } catch (error) {
        get().showNotice(`Could not load the older part of the conversation: ${messageOf(error)}`);
      } finally {
        set((state) => {
          const loadingOlder = { ...state.loadingOlder };
          delete loadingOlder[conversationId];
          return { loadingOlder };
        });
      }
    },
    setJournalStatus: (conversationId, status) =>
      set((state) => ({ journalStatus: { ...state.journalStatus, [conversationId]: status } })),
    forgetJournals: () => set({ journalStatus: {} }),
  });
}

/**
 * A page of one conversation's journal folded in by `merge` (in place of what it held, or before
 * it), and where its next older page ends (none: the page reached the journal's start).
 */
function mergePage(
  state: EventsSlice,
  input: {
    conversationId: string;
    events: readonly HostAgentEvent[];
    page: { batchesBefore: number; before?: number } | undefined;
  },
  merge: (
    data: FoldedData,
    options: { conversationId: string; events: readonly HostAgentEvent[]; batchesBefore: number },
  ) => FoldedData,
): Partial<EventsSlice> {
  const { conversationId, events, page } = input;
  const journalBefore = { ...state.journalBefore };
  if (page?.before !== undefined) journalBefore[conversationId] = page.before;
  else delete journalBefore[conversationId];
  return {
    ...foldedPart(merge(state, { conversationId, events, batchesBefore: page?.batchesBefore ?? 0 }), state),
    journalBefore,
  };
}

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
