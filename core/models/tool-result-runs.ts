import type { ConversationMessage, ToolResultMessage } from './conversation-message.ts';

/** A conversation cut into single user/assistant messages and runs of consecutive tool results. */
export type ConversationItem =
  Exclude<ConversationMessage, ToolResultMessage> | { role: 'tool-results'; results: ToolResultMessage[] };

/**
 * Groups consecutive tool results into one run: every format answers one assistant reply's
 * calls together (one user message of `tool_result` blocks, one content of `functionResponse`s).
 */
export function toolResultRuns(messages: readonly ConversationMessage[]): ConversationItem[] {
  const items: ConversationItem[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') {
      items.push(message);
      continue;
    }
    const last = items[items.length - 1];
    if (last && last.role === 'tool-results') last.results.push(message);
    else items.push({ role: 'tool-results', results: [message] });
  }
  return items;
}
