import type { StateCreator } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client.ts';
import { messageOf } from './conversations-slice.ts';
import type { AppState } from './create-app-store.ts';

/** Sending and stopping: the composer's actions. What was said arrives back as events. */
export interface ChatSlice {
  /** True between pressing Send and the host accepting the message. */
  sending: boolean;
  /** Sends to the open conversation (the host creates one when none is open); false when refused. */
  sendMessage(text: string): Promise<boolean>;
  /** Asks the host to stop the open conversation's running turn. */
  abortTurn(): Promise<void>;
}

/** The slice, with the API its actions call. */
export function createChatSlice(api: ApiClient): StateCreator<AppState, [], [], ChatSlice> {
  return (set, get) => ({
    sending: false,
    async sendMessage(text) {
      const conversationId = get().openConversationId;
      set({ sending: true });
      try {
        const sent = await api.call('chat/send', conversationId ? { conversationId, text } : { text });
        if (sent.conversationId !== get().openConversationId) {
          get().openConversation(sent.conversationId);
          void get().refreshConversations();
        }
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
        await api.call('chat/abort', { conversationId });
      } catch (error) {
        get().showNotice(`Could not stop the turn: ${messageOf(error)}`);
      }
    },
  });
}
