import type { ConversationMessage, ToolCallRecord } from '../models/conversation-message.ts';

/** What a dangling call's missing result says to the model; the caller decides from what it knows. */
export type DanglingAnswer = (call: ToolCallRecord) => { content: string; isError: boolean };

/** The answer given when nothing else is known of a call: it may have acted. */
export const UNKNOWN_RESULT_CONTENT = JSON.stringify({
  error: { reason: 'aborted', detail: 'No result was recorded for this call: Home Agent stopped while it ran.' },
  outcome: 'unknown',
  note: 'It may have acted. Read the device state before saying what happened or trying again.',
});

/**
 * `answerDanglingCalls` one message at a time, for a history that only grows: what it has emitted
 * (`answered`) never changes as messages are added; only the calls of the latest assistant message
 * may still be open, and `closing()` says how they would be answered if the history ended now.
 */
export class CallAnswerer {
  /** The history so far, gaps answered, without the answers to the calls still open. */
  readonly answered: ConversationMessage[] = [];
  private open: ToolCallRecord[] = [];
  private readonly results = new Set<string>();

  constructor(private readonly answer: DanglingAnswer = () => ({ content: UNKNOWN_RESULT_CONTENT, isError: true })) {}

  /** Adds the next stored message; returns the messages it appended to `answered` (gap answers first). */
  push(message: ConversationMessage): ConversationMessage[] {
    const start = this.answered.length;
    if (message.role === 'tool' && this.open.some((call) => call.id === message.toolCallId)) {
      this.results.add(message.toolCallId);
      this.answered.push(message);
      return this.answered.slice(start);
    }
    this.answered.push(...this.closing());
    this.open = [];
    this.results.clear();
    this.answered.push(message);
    if (message.role === 'assistant') this.open = [...message.toolCalls];
    return this.answered.slice(start);
  }

  /** The answers the open calls would get if the history ended here. */
  closing(): ConversationMessage[] {
    return this.open
      .filter((call) => !this.results.has(call.id))
      .map((call) => {
        const { content, isError } = this.answer(call);
        return { role: 'tool', toolCallId: call.id, toolName: call.name, content, isError };
      });
  }
}

/**
 * Pure: the history with every assistant tool call answered exactly once, right after its
 * message — as OpenAI and Anthropic require of every request. A call whose result is missing (the
 * process was killed while it ran) gets the answer `answer` gives; results are never reordered.
 */
export function answerDanglingCalls(
  messages: readonly ConversationMessage[],
  answer?: DanglingAnswer,
): ConversationMessage[] {
  const answerer = new CallAnswerer(answer);
  for (const message of messages) answerer.push(message);
  return [...answerer.answered, ...answerer.closing()];
}

/** The calls of assistant messages that no tool message answers (for repair and `verify`). */
export function danglingCalls(messages: readonly ConversationMessage[]): ToolCallRecord[] {
  const dangling: ToolCallRecord[] = [];
  answerDanglingCalls(messages, (call) => {
    dangling.push(call);
    return { content: '', isError: true };
  });
  return dangling;
}
