import { randomUUID } from 'node:crypto';
import { ConversationBusyError } from '../../core/agent/agent.ts';
import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/** Conversations and chat: what a person says. */
export function conversationHandlers(
  parts: HostParts,
): ApiHandlersOf<'conversations/list' | 'conversations/create' | 'conversations/events' | 'chat/send' | 'chat/abort'> {
  const { agent, store } = parts;
  return {
    'conversations/list': () => ({ conversations: store.listConversations() }),
    'conversations/create': (input) => store.createConversation(input.title ?? 'New conversation'),
    'conversations/events': (input) => ({ events: store.loadEvents(input.conversationId) }),
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
