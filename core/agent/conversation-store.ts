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
  /**
   * The messages stored after sequence number `afterSeq` (1-based positions), and the number of
   * the last one read (`afterSeq` when there is none). A conversation that holds fewer messages
   * than `afterSeq` answers with its own last number, lower than `afterSeq`.
   */
  loadMessagesAfter(conversationId: string, afterSeq: number): { messages: ConversationMessage[]; lastSeq: number };
  appendMessage(conversationId: string, message: ConversationMessage): void;
  /** The event journal: every event of every turn, in order. */
  appendEvent(event: AgentEvent): void;
  /**
   * Keeps the system prompt and the tool declarations (their JSON as sent) a request carried, each
   * under its hash and once, so the request header can be rebuilt later (`home-agent verify`).
   */
  recordRequestParts?(parts: RequestParts): void;
}

/** What a request carried besides its messages, with the hashes its `request/header` records. */
export interface RequestParts {
  system: string;
  systemPromptHash: string;
  /** The tool declarations as sent: a JSON array of `{ name, description, parameters }`. */
  toolsJson: string;
  toolsHash: string;
}

/** A ConversationStore in memory, for tests and embedding. */
export class InMemoryConversationStore implements ConversationStore {
  readonly messages = new Map<string, ConversationMessage[]>();
  readonly events: AgentEvent[] = [];
  readonly titles = new Map<string, string>();
  /** Request parts by hash. */
  readonly requestParts = new Map<string, string>();

  ensureConversation(conversationId: string, title: string): void {
    if (!this.messages.has(conversationId)) {
      this.messages.set(conversationId, []);
      this.titles.set(conversationId, title);
    }
  }

  loadMessages(conversationId: string): ConversationMessage[] {
    return [...(this.messages.get(conversationId) ?? [])];
  }

  loadMessagesAfter(conversationId: string, afterSeq: number): { messages: ConversationMessage[]; lastSeq: number } {
    const list = this.messages.get(conversationId) ?? [];
    if (list.length < afterSeq) return { messages: [], lastSeq: list.length };
    return { messages: list.slice(afterSeq), lastSeq: list.length };
  }

  recordRequestParts(parts: RequestParts): void {
    this.requestParts.set(parts.systemPromptHash, parts.system);
    this.requestParts.set(parts.toolsHash, parts.toolsJson);
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
