import { z } from 'zod';

const toolCallFragment = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  function: z
    .object({
      name: z.string().nullish(),
      arguments: z.string().nullish(),
    })
    .nullish(),
});

const choice = z.object({
  index: z.number().int().nonnegative().nullish(),
  delta: z
    .object({
      content: z.string().nullish(),
      refusal: z.string().nullish(),
      tool_calls: z.array(toolCallFragment).nullish(),
    })
    .nullish(),
  finish_reason: z.string().nullish(),
});

const usage = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
});

/**
 * One `chat.completion.chunk`, strict about the fields the adapter reads and lenient about the
 * rest (servers add `obfuscation`, `note`, `reasoning_content`, `native_finish_reason`, …).
 * `choices` is optional here only so that a mid-stream `{ error }` object parses; the adapter
 * rejects a chunk with neither.
 */
export const openAiChunkSchema = z.object({
  choices: z.array(choice).optional(),
  usage: usage.nullish(),
  error: z.union([z.string(), z.object({ message: z.string() })]).nullish(),
});

export type OpenAiChunk = z.infer<typeof openAiChunkSchema>;
