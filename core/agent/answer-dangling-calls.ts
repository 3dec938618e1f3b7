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
 * Pure: the history with every assistant tool call answered exactly once, right after its
 * message — as OpenAI and Anthropic require of every request. A call whose result is missing (the
 * process was killed while it ran) gets the answer `answer` gives; results are never reordered.
 */
export function answerDanglingCalls(
  messages: readonly ConversationMessage[],
  answer: DanglingAnswer = () => ({ content: UNKNOWN_RESULT_CONTENT, isError: true }),
): ConversationMessage[] {
  const result: ConversationMessage[] = [];
  let open: ToolCallRecord[] = [];
  const answered = new Set<string>();
  const closeOpen = (): void => {
    for (const call of open) {
      if (answered.has(call.id)) continue;
      const { content, isError } = answer(call);
      result.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content, isError });
    }
    open = [];
    answered.clear();
  };
  for (const message of messages) {
    if (message.role === 'tool' && open.some((call) => call.id === message.toolCallId)) {
      answered.add(message.toolCallId);
      result.push(message);
      continue;
    }
    closeOpen();
    result.push(message);
    if (message.role === 'assistant') open = [...message.toolCalls];
  }
  closeOpen();
  return result;
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
