import { z } from 'zod';
import { toolMediaSchema } from '../tools/tool-media.ts';

/** One tool call as the model made it and as it is stored in the assistant message. */
export const toolCallRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Parsed arguments; `{}` when the model sent none. When they were not JSON, `argumentsText` has the raw text. */
  args: z.record(z.string(), z.unknown()),
  argumentsText: z.string().optional(),
});
export type ToolCallRecord = z.infer<typeof toolCallRecordSchema>;

const userMessageSchema = z.object({ role: z.literal('user'), text: z.string() });

/** One assistant reply: its text once, and all tool calls of the reply. */
const assistantMessageSchema = z.object({
  role: z.literal('assistant'),
  text: z.string(),
  toolCalls: z.array(toolCallRecordSchema),
});

/** A tool result, paired with its call id exactly once, followed by its own media. */
const toolResultMessageSchema = z.object({
  role: z.literal('tool'),
  toolCallId: z.string(),
  toolName: z.string(),
  /** The result rendered for the model: compact JSON or a plain string. */
  content: z.string(),
  isError: z.boolean(),
  media: z.array(toolMediaSchema).optional(),
  /**
   * `repair`: written by Home Agent's start-up repair, because the process stopped before this call's
   * own result was stored (absent for every result a run of the call wrote).
   */
  writtenBy: z.literal('repair').optional(),
});

/** A message of a conversation, as the model request is built from it and as the store keeps it. */
export const conversationMessageSchema = z.discriminatedUnion('role', [
  userMessageSchema,
  assistantMessageSchema,
  toolResultMessageSchema,
]);
export type UserMessage = z.infer<typeof userMessageSchema>;
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;
export type ToolResultMessage = z.infer<typeof toolResultMessageSchema>;
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;
