import type { ConversationMessage } from '../models/conversation-message.ts';
import type { AgentEvent } from '../events/agent-event.ts';

/**
 * Where the agent keeps conversations. The host implements it with SQLite; tests may use the
 * in-memory one. Every method is synchronous: SQLite via better-sqlite3 is, and a turn must not
 * interleave writes of one conversation.
 */
export interface ConversationStore {
  /** Creates the conversation if it does not exist yet. */
  ensureConversation(conversationId: string, title: string): void;
  loadMessages(conversationId: string): ConversationMessage[];
  appendMessage(conversationId: string, message: ConversationMessage): void;
  /** The event journal: every event of every turn, in order. */
  appendEvent(event: AgentEvent): void;
}

/** A ConversationStore in memory, for tests and embedding. */
export class InMemoryConversationStore implements ConversationStore {
  readonly messages = new Map<string, ConversationMessage[]>();
  readonly events: AgentEvent[] = [];
  readonly titles = new Map<string, string>();

  ensureConversation(conversationId: string, title: string): void {
    if (!this.messages.has(conversationId)) {
      this.messages.set(conversationId, []);
      this.titles.set(conversationId, title);
    }
  }

  loadMessages(conversationId: string): ConversationMessage[] {
    return [...(this.messages.get(conversationId) ?? [])];
  }

  appendMessage(conversationId: string, message: ConversationMessage): void {
    const list = this.messages.get(conversationId) ?? [];
    list.push(message);
    this.messages.set(conversationId, list);
  }

  appendEvent(event: AgentEvent): void {
    this.events.push(event);
  }
}
