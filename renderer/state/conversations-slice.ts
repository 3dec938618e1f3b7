import type { StateCreator } from 'zustand/vanilla';
import type { ConversationSummary } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import { messageOf } from './message-of.ts';
import { newestWins } from './newest-wins.ts';

/** A search of the conversations: the text typed, and what the host found for it. */
export interface ConversationSearch {
  query: string;
  status: 'searching' | 'done' | 'failed';
  results: ConversationSummary[];
  error?: string;
}

/** The conversation list (newest first), which conversation is open, and a search over them. */
export interface ConversationsSlice {
  conversations: ConversationSummary[];
  openConversationId: string | null;
  /** Null when nothing is searched: the list shows every conversation. */
  conversationSearch: ConversationSearch | null;
  setConversations(conversations: ConversationSummary[]): void;
  /** Opens a conversation (null: none, the next message begins one); closes the drawer it was chosen in. */
  openConversation(conversationId: string | null): void;
  /** Re-reads the list from the host; failures become the notice. */
  refreshConversations(): Promise<void>;
  /**
   * Starts a new conversation: nothing is open, so the next message begins one (the host stores a
   * conversation at its first message, never an empty one).
   */
  startNewConversation(): void;
  /** Searches titles and messages; an empty query shows every conversation again. Only the newest search lands. */
  searchConversations(query: string): Promise<void>;
  /** Renames a conversation; false (and the notice says why) when the host refused. */
  renameConversation(conversationId: string, title: string): Promise<boolean>;
  /** Deletes a conversation with its history; the open one closes. False (and the notice says why) when refused. */
  deleteConversation(conversationId: string): Promise<boolean>;
}

/** The slice, with the API its actions call. */
export function createConversationsSlice(api: ApiClient): StateCreator<AppState, [], [], ConversationsSlice> {
  const searches = newestWins();
  return (set, get) => {
    /** Puts a changed summary in the list (and in the search results), keeping newest first. */
    function replaceSummary(summary: ConversationSummary): void {
      const swap = (list: ConversationSummary[]) => list.map((entry) => (entry.id === summary.id ? summary : entry));
      set((state) => ({
        conversations: swap(state.conversations),
        conversationSearch: state.conversationSearch
          ? { ...state.conversationSearch, results: swap(state.conversationSearch.results) }
          : null,
      }));
    }

    return {
      conversations: [],
      openConversationId: null,
      conversationSearch: null,
      setConversations: (conversations) =>
        set({ conversations: [...conversations].sort((left, right) => right.updatedAt - left.updatedAt) }),
      openConversation: (openConversationId) =>
        set((state) => ({ openConversationId, drawer: state.drawer === 'conversations' ? null : state.drawer })),
      async refreshConversations() {
        try {
          const { conversations } = await api.call('conversations/list', {});
          get().setConversations(conversations);
          const search = get().conversationSearch;
          if (search) void get().searchConversations(search.query);
        } catch (error) {
          get().showNotice(`Could not load the conversations: ${messageOf(error)}`);
        }
      },
      startNewConversation: () =>
        set((state) => ({ openConversationId: null, drawer: state.drawer === 'conversations' ? null : state.drawer })),
      async searchConversations(query) {
        if (query.trim() === '') {
          // Cleared: a search still in flight must not bring its results back.
          searches.supersede();
          set({ conversationSearch: null });
          return;
        }
        set((state) => ({
          conversationSearch: { query, status: 'searching', results: state.conversationSearch?.results ?? [] },
        }));
        await searches.run({
          request: () => api.call('conversations/search', { query }),
          onAnswer: ({ conversations }) =>
            set({ conversationSearch: { query, status: 'done', results: conversations } }),
          onError: (error) =>
            set({
              conversationSearch: {
                query,
                status: 'failed',
                results: [],
                error: `The search failed: ${messageOf(error)}`,
              },
            }),
        });
      },
      async renameConversation(conversationId, title) {
        try {
          replaceSummary(await api.call('conversations/rename', { conversationId, title }));
          return true;
        } catch (error) {
          get().showNotice(`The conversation was not renamed: ${messageOf(error)}`);
          return false;
        }
      },
      async deleteConversation(conversationId) {
        try {
          await api.call('conversations/delete', { conversationId });
        } catch (error) {
          get().showNotice(`The conversation was not deleted: ${messageOf(error)}`);
          return false;
        }
        set((state) => ({
          conversations: state.conversations.filter((entry) => entry.id !== conversationId),
          conversationSearch: state.conversationSearch
            ? {
                ...state.conversationSearch,
                results: state.conversationSearch.results.filter((entry) => entry.id !== conversationId),
              }
            : null,
          openConversationId: state.openConversationId === conversationId ? null : state.openConversationId,
        }));
        return true;
      },
    };
  };
}
