import type { StateCreator } from 'zustand/vanilla';
import { ApiCallError, type ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';

/** Sending and stopping: the composer's actions. What was said arrives back as events. */
export interface ChatSlice {
  /** True between pressing Send and the host accepting the message. */
  sending: boolean;
  /**
   * Turns whose Stop the host accepted. While such a turn still runs, the host is reading back the
   * devices that may have acted (`turnIsStopping`); once it ended, by a live event or a journal
   * reload, the entry says nothing any more, so a missed `turn/end` can never mark the next turn.
   */
  stopping: Record<string, true>;
  /** Why the last message was not sent, and what to do (shown by the message box, which keeps the text); null once one is. */
  sendFailure: string | null;
  /**
   * Sends to the open conversation, or begins a new one (its id minted here); false when it was
   * not sent (then the window stays where it was and `sendFailure` says why).
   */
  sendMessage(text: string): Promise<boolean>;
  /** Asks the host to stop the open conversation's running turn. */
  abortTurn(): Promise<void>;
}

/** The slice, with the API its actions call. */
export function createChatSlice(api: ApiClient): StateCreator<AppState, [], [], ChatSlice> {
  return (set, get) => ({
    sending: false,
    stopping: {},
    sendFailure: null,
    async sendMessage(text) {
      const opened = get().openConversationId;
      let conversationId = opened;
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
        set({ sendFailure: null });
        return true;
      } catch (error) {
        // Nothing began: the window goes back to where it was (a new conversation it opened is no conversation).
        if (opened === null) get().openConversation(null);
        set({ sendFailure: notSent(error) });
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
          set((state) => ({ stopping: { ...state.stopping, [last]: true } }));
      } catch (error) {
        get().showNotice(`Could not stop the turn: ${messageOf(error)}`);
      }
    },
  });
}

/**
 * Pure: what the message box says when a message was not sent. The host answered and refused it
 * (its reason), or it could not be reached (no answer at all): then to send it again once the window
 * is connected. Either way the text is still in the box.
 */
export function notSent(error: unknown): string {
  if (error instanceof ApiCallError && error.status !== undefined)
    return `Not sent: ${messageOf(error)} Your message is still in the box.`;
  return `Not sent: Home Agent cannot be reached (it may have stopped or be restarting). Your message is still in the box: send it again once the window says Connected.`;
}

/** Whether the turn's Stop was accepted and the turn still runs (the host reads the devices back). */
export function turnIsStopping(state: Pick<AppState, 'stopping' | 'turns'>, turnId: string | undefined): boolean {
  return turnId !== undefined && state.stopping[turnId] === true && state.turns[turnId]?.status === 'running';
}
