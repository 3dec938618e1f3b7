import { randomUUID } from 'node:crypto';
import { ConversationBusyError } from '../../core/agent/agent.ts';
import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/** Conversations and chat: what a person says. */
export function conversationHandlers(
  parts: HostParts,
): ApiHandlersOf<
  | 'conversations/list'
  | 'conversations/create'
  | 'conversations/events'
  | 'conversations/rename'
  | 'conversations/delete'
  | 'conversations/search'
  | 'chat/send'
  | 'chat/abort'
> {
  const { agent, store } = parts;
  return {
    'conversations/list': () => ({ conversations: store.listConversations() }),
    'conversations/create': (input) => store.createConversation(input.title ?? 'New conversation'),
    'conversations/events': (input) => {
      if (!input.page) return { events: store.loadEvents(input.conversationId) };
      const { events, ...page } = store.loadEventsPage(input.conversationId, input.page);
      return { events, page };
    },
    'conversations/rename': (input) => {
      if (!store.getConversation(input.conversationId)) throw noConversation(input.conversationId);
      return store.renameConversation(input.conversationId, input.title);
    },
    'conversations/delete': (input) => {
      if (agent.isBusy(input.conversationId))
        throw new ApiError(409, 'a turn is running in this conversation: stop it first, then delete the conversation');
      if (!store.deleteConversation(input.conversationId)) throw noConversation(input.conversationId);
      return { deleted: true };
    },
    'conversations/search': (input) => ({ conversations: store.searchConversations(input.query) }),
    'chat/send': (input) => {
      const conversationId = input.conversationId ?? randomUUID();
      try {
        const { turnId, done } = agent.startTurn({ conversationId, text: input.text });
        done.catch((error: unknown) => parts.log(`turn ${turnId} failed: ${(error as Error).message}`));
        return { conversationId, turnId };
      } catch (error) {
        if (error instanceof ConversationBusyError) throw new ApiError(409, error.message);
        throw error;
      }
    },
    'chat/abort': (input) => ({ aborted: agent.abort(input.conversationId) }),
  };
}

function noConversation(conversationId: string): ApiError {
  return new ApiError(404, `there is no conversation ${conversationId} (it may have been deleted elsewhere)`);
}
