import { z } from 'zod';

/**
 * One `/api/chat` NDJSON line, strict about content, tool_calls, done and the counts the adapter
 * reads, lenient about the rest (durations, created_at, thinking, …). A mid-stream failure is
 * `{ error }`.
 */
export const ollamaChunkSchema = z.object({
  message: z
    .object({
      content: z.string().nullish(),
      tool_calls: z
        .array(
          z.object({
            id: z.string().nullish(),
            function: z.object({
              name: z.string().min(1),
              // Ollama sends an object; some proxies send the JSON text.
              arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
            }),
          }),
        )
        .nullish(),
    })
    .nullish(),
  done: z.boolean().nullish(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nullish(),
  eval_count: z.number().nullish(),
  error: z.string().nullish(),
});

export type OllamaChunk = z.infer<typeof ollamaChunkSchema>;
