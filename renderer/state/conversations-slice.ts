import type { StateCreator } from 'zustand/vanilla';
import type { ConversationSummary } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';

/** The conversation list (newest first) and which conversation is open. */
export interface ConversationsSlice {
  conversations: ConversationSummary[];
  openConversationId: string | null;
  setConversations(conversations: ConversationSummary[]): void;
  openConversation(conversationId: string | null): void;
  /** Re-reads the list from the host; failures become the notice. */
  refreshConversations(): Promise<void>;
  /** Creates an empty conversation on the host and opens it. */
  createConversation(): Promise<void>;
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
    async createConversation() {
      try {
        const created = await api.call('conversations/create', {});
        get().setConversations([created, ...get().conversations.filter((entry) => entry.id !== created.id)]);
        get().openConversation(created.id);
      } catch (error) {
        get().showNotice(`Could not create a conversation: ${messageOf(error)}`);
      }
    },
  });
}

/** The message of anything thrown, for a notice line. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
