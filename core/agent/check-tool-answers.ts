import type { ConversationMessage } from '../models/conversation-message.ts';

/** A place where a history breaks the rule every provider enforces on tool calls. */
export interface ToolAnswerProblem {
  /** 0-based position of the message in the history. */
  position: number;
  callId: string;
  problem: 'unanswered' | 'answered_twice' | 'answers_no_open_call';
}

/**
 * Pure: where a history breaks "every assistant tool call is answered exactly once, by the tool
 * messages right after its message" (OpenAI and Anthropic refuse a request otherwise). Empty when
 * the history is valid.
 */
export function checkToolAnswers(messages: readonly ConversationMessage[]): ToolAnswerProblem[] {
  const problems: ToolAnswerProblem[] = [];
  let open: { callId: string; position: number }[] = [];
  const answered = new Set<string>();
  const closeOpen = (): void => {
    for (const call of open) if (!answered.has(call.callId)) problems.push({ ...call, problem: 'unanswered' });
    open = [];
    answered.clear();
  };
  messages.forEach((message, position) => {
    if (message.role === 'tool') {
      if (!open.some((call) => call.callId === message.toolCallId)) {
        problems.push({ position, callId: message.toolCallId, problem: 'answers_no_open_call' });
        return;
      }
      if (answered.has(message.toolCallId))
        problems.push({ position, callId: message.toolCallId, problem: 'answered_twice' });
      answered.add(message.toolCallId);
      return;
    }
    closeOpen();
    if (message.role === 'assistant') open = message.toolCalls.map((call) => ({ callId: call.id, position }));
  });
  closeOpen();
  return problems;
}
