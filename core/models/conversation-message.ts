import type { ToolMedia } from '../tools/tool-definition.ts';

/** One tool call as the model made it and as it is stored in the assistant message. */
export interface ToolCallRecord {
  id: string;
  name: string;
  /** Parsed arguments; `{}` when the model sent none. When they were not JSON, `argumentsText` has the raw text. */
  args: Record<string, unknown>;
  argumentsText?: string;
}

export interface UserMessage {
  role: 'user';
  text: string;
}

/** One assistant reply: its text once, and all tool calls of the reply. */
export interface AssistantMessage {
  role: 'assistant';
  text: string;
  toolCalls: ToolCallRecord[];
}

/** A tool result, paired with its call id exactly once, followed by its own media. */
export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  /** The result rendered for the model: compact JSON or a plain string. */
  content: string;
  isError: boolean;
  media?: ToolMedia[];
}

export type ConversationMessage = UserMessage | AssistantMessage | ToolResultMessage;
