import { z } from 'zod';

/** One Vertex streamed-argument piece: a value at a JSON path; a string may continue in the next piece. */
export const partialArgSchema = z.object({
  jsonPath: z.string().min(1),
  stringValue: z.string().nullish(),
  numberValue: z.number().nullish(),
  boolValue: z.boolean().nullish(),
  nullValue: z.unknown().optional(),
  willContinue: z.boolean().nullish(),
});

export type PartialArg = z.infer<typeof partialArgSchema>;

export const functionCallSchema = z.object({
  id: z.string().nullish(),
  name: z.string().nullish(),
  args: z.record(z.string(), z.unknown()).nullish(),
  partialArgs: z.array(partialArgSchema).nullish(),
  willContinue: z.boolean().nullish(),
});

export type GeminiFunctionCall = z.infer<typeof functionCallSchema>;

const partSchema = z.object({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  functionCall: functionCallSchema.nullish(),
});

/**
 * One `GenerateContentResponse` of a stream, strict about text, thought, functionCall and
 * finishReason, lenient about the rest (thoughtSignature, safety ratings, modelVersion, …).
 */
export const geminiChunkSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(partSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
      }),
    )
    .nullish(),
  usageMetadata: z
    .object({ promptTokenCount: z.number().nullish(), candidatesTokenCount: z.number().nullish() })
    .nullish(),
  promptFeedback: z.object({ blockReason: z.string().nullish() }).nullish(),
  error: z.object({ message: z.string() }).nullish(),
});

export type GeminiChunk = z.infer<typeof geminiChunkSchema>;
