import type { ConversationMessage } from '../models/conversation-message.ts';
import type { ConversationStore } from './conversation-store.ts';
import { CallAnswerer } from './answer-dangling-calls.ts';
import { chainMessageHash, MESSAGES_HASH_START } from './request-hash.ts';

/** The messages of one request, their hash chain, and the last stored message they include. */
export interface HistorySnapshot {
  messages: ConversationMessage[];
  messagesHash: string;
  /** Sequence number (1-based position) of the last stored message read; 0 for none. */
  messageSeq: number;
}

/**
 * One conversation's history as requests carry it, kept between steps and turns: each read loads
 * only the messages stored since the last one, answers gaps as `answerDanglingCalls` does, and
 * extends the hash chain by them. So a step's cost does not grow with the conversation. A store
 * that holds fewer messages than were read (the conversation was deleted) starts it over.
 */
export class RequestHistory {
  private answerer = new CallAnswerer();
  private chain = MESSAGES_HASH_START;
  private hashed = 0;
  private seq = 0;

  constructor(private readonly conversationId: string) {}

  async read(store: ConversationStore): Promise<HistorySnapshot> {
    let loaded = store.loadMessagesAfter(this.conversationId, this.seq);
    if (loaded.lastSeq < this.seq) {
      this.answerer = new CallAnswerer();
      this.chain = MESSAGES_HASH_START;
      this.hashed = 0;
      this.seq = 0;
      loaded = store.loadMessagesAfter(this.conversationId, 0);
    }
    for (const message of loaded.messages) this.answerer.push(message);
    this.seq = loaded.lastSeq;
    const { answered } = this.answerer;
    for (; this.hashed < answered.length; this.hashed += 1)
      this.chain = await chainMessageHash(this.chain, answered[this.hashed]!);
    const closing = this.answerer.closing();
    let messagesHash = this.chain;
    for (const message of closing) messagesHash = await chainMessageHash(messagesHash, message);
    return { messages: [...answered, ...closing], messagesHash, messageSeq: this.seq };
  }
}

/** The histories of the conversations used most recently (a few: each holds its messages). */
export class RequestHistories {
  private readonly histories = new Map<string, RequestHistory>();

  constructor(private readonly capacity = 16) {}

  of(conversationId: string): RequestHistory {
    const history = this.histories.get(conversationId) ?? new RequestHistory(conversationId);
    // Re-inserted, so the map's order is least recently used first.
    this.histories.delete(conversationId);
    this.histories.set(conversationId, history);
    for (const oldest of this.histories.keys()) {
      if (this.histories.size <= this.capacity) break;
      this.histories.delete(oldest);
    }
    return history;
  }
}
