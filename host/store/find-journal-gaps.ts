import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { ConversationMessage } from '../../core/models/conversation-message.ts';

/** A stored message no journal event records: a journal wiped or edited after it was written. */
export interface JournalGap {
  conversationId: string;
  seq: number;
  role: ConversationMessage['role'];
  detail: string;
}

/**
 * The messages of one conversation that its journal does not record. Each person's message opens a
 * turn and must have its `turn/start` (same text, in order); within that turn an assistant message
 * must have its `message/assistant` (same text and calls) — or, for text cut short by an error or a
 * Stop, the turn's streamed `text/delta` — and a tool result its call's `tool/end`, unless the
 * start-up repair wrote it (`writtenBy: 'repair'`: the process had stopped before the call ended).
 */
export function findJournalGaps(options: {
  conversationId: string;
  messages: readonly { seq: number; message: ConversationMessage }[];
  events: readonly AgentEvent[];
}): JournalGap[] {
  const { conversationId } = options;
  const turns = new Map<string, AgentEvent[]>();
  for (const event of options.events) {
    const turn = turns.get(event.turnId);
    if (turn === undefined) turns.set(event.turnId, [event]);
    else turn.push(event);
  }
  const starts = options.events.filter((event) => event.type === 'turn/start');
  let nextStart = 0;
  let turn: AgentEvent[] | undefined;
  const gaps: JournalGap[] = [];
  for (const { seq, message } of options.messages) {
    let detail: string | undefined;
    if (message.role === 'user') {
      const found = starts.findIndex((start, index) => index >= nextStart && start.text === message.text);
      turn = found === -1 ? undefined : turns.get(starts[found]!.turnId);
      if (found === -1) detail = 'no turn/start records it';
      else nextStart = found + 1;
    } else if (turn === undefined) detail = 'its turn has no turn/start';
    else if (message.role === 'assistant') {
      if (!turn.some((event) => recordsAssistant(event, message)))
        detail = 'no message/assistant of its turn records it';
    } else if (
      message.writtenBy !== 'repair' &&
      !turn.some((event) => event.type === 'tool/end' && event.callId === message.toolCallId)
    )
      detail = 'no tool/end of its turn records it';
    if (detail !== undefined) gaps.push({ conversationId, seq, role: message.role, detail });
  }
  return gaps;
}

function recordsAssistant(event: AgentEvent, message: Extract<ConversationMessage, { role: 'assistant' }>): boolean {
  if (event.type === 'text/delta') return message.toolCalls.length === 0;
  return (
    event.type === 'message/assistant' &&
    event.text === message.text &&
    event.toolCalls.map((call) => call.id).join('\n') === message.toolCalls.map((call) => call.id).join('\n')
  );
}
