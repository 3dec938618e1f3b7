import type { StateCreator } from 'zustand/vanilla';
import type { ConversationSummary } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import { messageOf } from './message-of.ts';

/** The conversation list (newest first) and which conversation is open. */
export interface ConversationsSlice {
  conversations: ConversationSummary[];
  openConversationId: string | null;
  setConversations(conversations: ConversationSummary[]): void;
  openConversation(conversationId: string | null): void;
  /** Re-reads the list from the host; failures become the notice. */
  refreshConversations(): Promise<void>;
  /**
   * Starts a new conversation: nothing is open, so the next message begins one (the host stores a
   * conversation at its first message, never an empty one).
   */
  startNewConversation(): void;
}

/** The slice, with the API its actions call. */
export function createConversationsSlice(api: ApiClient): StateCreator<AppState, [], [], ConversationsSlice> {
  return (set, get) => ({
    conversations: [],
    openConversationId: null,
    setConversations: (conversations) =>
      set({ conversations: [...conversations].sort((left, right) => right.updatedAt - left.updatedAt) }),
    openConversation: (openConversationId) => set({ openConversationId }),
    async refreshConversations() {
      try {
        const { conversations } = await api.call('conversations/list', {});
        get().setConversations(conversations);
      } catch (error) {
        get().showNotice(`Could not load the conversations: ${messageOf(error)}`);
      }
    },
    startNewConversation: () => set({ openConversationId: null }),
  });
}
