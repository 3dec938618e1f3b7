import type { ConversationMessage } from '../models/conversation-message.ts';
import type { ContextFit } from '../context/fit-history.ts';
import type { ConversationStore } from './conversation-store.ts';
import { CallAnswerer } from './answer-dangling-calls.ts';
import { chainMessageHash, MESSAGES_HASH_START } from './request-hash.ts';

/** The messages of one request, their hash chain, and the last stored message they include. */
export interface HistorySnapshot {
  messages: ConversationMessage[];
  messagesHash: string;
  /** Sequence number (1-based position) of the last stored message read; 0 for none. */
  messageSeq: number;
  /** How many of the last messages are answers made up for calls still open (they may change at the next read). */
  closingCount: number;
}

/** The hash chain of the messages a fitted request sent, kept while the fit stays the same. */
interface FittedChain extends ContextFit {
  first: ConversationMessage | undefined;
  hashed: number;
  chain: string;
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
  private fitted: FittedChain | undefined;

  constructor(private readonly conversationId: string) {}

  async read(store: ConversationStore): Promise<HistorySnapshot> {
    let loaded = store.loadMessagesAfter(this.conversationId, this.seq);
    if (loaded.lastSeq < this.seq) {
      this.answerer = new CallAnswerer();
      this.chain = MESSAGES_HASH_START;
      this.hashed = 0;
      this.seq = 0;
      this.fitted = undefined;
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
    return { messages: [...answered, ...closing], messagesHash, messageSeq: this.seq, closingCount: closing.length };
  }

  /**
   * The hash chain over `sent`, the messages a fit (`fit`) kept of the last read, whose last
   * `closingCount` are made-up answers. While the fit stays the same, later reads only extend what
   * was sent before, so only the new messages are hashed; a changed fit hashes what it sends again.
   */
  async fittedHash(sent: readonly ConversationMessage[], fit: ContextFit, closingCount: number): Promise<string> {
    const stable = sent.length - closingCount;
    let cache = this.fitted;
    if (
      cache === undefined ||
      cache.omittedTurns !== fit.omittedTurns ||
      cache.shortenedResults !== fit.shortenedResults ||
      cache.first !== sent[0] ||
      cache.hashed > stable
    )
      cache = { ...fit, first: sent[0], hashed: 0, chain: MESSAGES_HASH_START };
    for (; cache.hashed < stable; cache.hashed += 1)
      cache.chain = await chainMessageHash(cache.chain, sent[cache.hashed]!);
    this.fitted = cache;
    let hash = cache.chain;
    for (let index = stable; index < sent.length; index += 1) hash = await chainMessageHash(hash, sent[index]!);
    return hash;
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
