import { z } from 'zod';
import type { ConversationMessage } from '../../core/models/conversation-message.ts';

const toolCallRecord = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  argumentsText: z.string().optional(),
});

/** A stored ConversationMessage (core/models/conversation-message.ts), checked when read back. */
export const conversationMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), text: z.string() }),
  z.object({ role: z.literal('assistant'), text: z.string(), toolCalls: z.array(toolCallRecord) }),
  z.object({
    role: z.literal('tool'),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean(),
    media: z.array(z.object({ mimeType: z.string(), data: z.string() })).optional(),
  }),
]);

// Fails to compile when the schema and core's type drift apart.
const _schemaMatchesCore: (message: z.output<typeof conversationMessageSchema>) => ConversationMessage = (message) =>
  message;
