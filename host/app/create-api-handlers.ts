import { randomUUID } from 'node:crypto';
import { ConversationBusyError, type Agent } from '../../core/agent/agent.ts';
import type { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';
import { ApiError, type ApiHandlers } from './api-handlers.ts';
import type { HostOptions } from './create-host.ts';

/** Binds each API method of the contract to the host's parts. */
export function createApiHandlers(parts: { agent: Agent; store: SqliteConversationStore; options: HostOptions }): ApiHandlers {
  const { agent, store, options } = parts;
  return {
    'app/info': () => ({
      version: options.version,
      transport: options.transport === 'electron' ? 'electron' : 'web',
      model: { label: options.model.label, scripted: options.model.scripted === true, ...(options.modelNotice ? { notice: options.modelNotice } : {}) },
      dataDir: options.dataDir,
    }),
    'conversations/list': () => ({ conversations: store.listConversations() }),
    'conversations/create': (input) => store.createConversation(input.title ?? 'New conversation'),
    'conversations/events': (input) => ({ events: store.loadEvents(input.conversationId) }),
    'chat/send': (input) => {
      const conversationId = input.conversationId ?? randomUUID();
      try {
        const { turnId, done } = agent.startTurn({ conversationId, text: input.text });
        done.catch((error: unknown) => options.log(`turn ${turnId} failed: ${(error as Error).message}`));
        return { conversationId, turnId };
      } catch (error) {
        if (error instanceof ConversationBusyError) throw new ApiError(409, error.message);
        throw error;
      }
    },
    'chat/abort': (input) => ({ aborted: agent.abort(input.conversationId) }),
    'devices/list': () => ({ devices: options.devices?.list() ?? [] }),
  };
}
