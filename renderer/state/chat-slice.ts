import type { StateCreator } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';

/** Sending and stopping: the composer's actions. What was said arrives back as events. */
export interface ChatSlice {
  /** True between pressing Send and the host accepting the message. */
  sending: boolean;
  /**
   * Conversations whose Stop the host accepted and whose turn has not ended yet: it is reading back
   * the devices that may have acted. Cleared by the turn's end.
   */
  stopping: Record<string, true>;
  /** The turn of a conversation ended: it is no longer stopping. */
  turnEnded(conversationId: string): void;
  /** Sends to the open conversation, or begins a new one (its id minted here); false when refused. */
  sendMessage(text: string): Promise<boolean>;
  /** Asks the host to stop the open conversation's running turn. */
  abortTurn(): Promise<void>;
}

/** The slice, with the API its actions call. */
export function createChatSlice(api: ApiClient): StateCreator<AppState, [], [], ChatSlice> {
  return (set, get) => ({
    sending: false,
    stopping: {},
    turnEnded(conversationId) {
      if (!get().stopping[conversationId]) return;
      set((state) => {
        const stopping = { ...state.stopping };
        delete stopping[conversationId];
        return { stopping };
      });
    },
    async sendMessage(text) {
      let conversationId = get().openConversationId;
      if (conversationId === null) {
        // A new conversation: its id is minted here and it opens at once with an empty journal, so
        // the events of its first turn fold in live with no reload and no second look-up.
        conversationId = crypto.randomUUID();
        get().setJournalStatus(conversationId, 'loaded');
        get().openConversation(conversationId);
      }
      set({ sending: true });
      try {
        await api.call('chat/send', { conversationId, text });
        get().showNotice(null);
        return true;
      } catch (error) {
        get().showNotice(`The message was not sent: ${messageOf(error)}`);
        return false;
      } finally {
        set({ sending: false });
      }
    },
    async abortTurn() {
      const conversationId = get().openConversationId;
      if (!conversationId) return;
      try {
        const { aborted } = await api.call('chat/abort', { conversationId });
        // The turn may already have ended meanwhile: only a running one is stopping.
        const order = get().turnOrder[conversationId];
        const last = order?.[order.length - 1];
        if (aborted && last !== undefined && get().turns[last]?.status === 'running')
          set((state) => ({ stopping: { ...state.stopping, [conversationId]: true } }));
      } catch (error) {
        get().showNotice(`Could not stop the turn: ${messageOf(error)}`);
      }
    },
  });
}
