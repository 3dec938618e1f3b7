import { z } from 'zod';

/** The part of every Anthropic stream event the adapter switches on. */
export const anthropicEventTypeSchema = z.object({ type: z.string() });

export const messageStartSchema = z.object({
  message: z.object({ usage: z.object({ input_tokens: z.number().nullish() }).nullish() }),
});

export const contentBlockStartSchema = z.object({
  index: z.number().int().nonnegative(),
  content_block: z.object({ type: z.string(), text: z.string().nullish() }),
});

/** A client `tool_use` block start: id and name are required, input is `{}` while it streams. */
export const toolUseStartSchema = z.object({
  content_block: z.object({
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()).nullish(),
  }),
});

export const contentBlockDeltaSchema = z.object({
  index: z.number().int().nonnegative(),
  delta: z.object({ type: z.string() }),
});

export const textDeltaSchema = z.object({ delta: z.object({ text: z.string() }) });
export const inputJsonDeltaSchema = z.object({ delta: z.object({ partial_json: z.string() }) });

export const contentBlockStopSchema = z.object({ index: z.number().int().nonnegative() });

export const messageDeltaSchema = z.object({
  delta: z.object({ stop_reason: z.string().nullish() }),
  usage: z.object({ output_tokens: z.number().nullish(), input_tokens: z.number().nullish() }).nullish(),
});

export const errorEventSchema = z.object({
  error: z.object({ type: z.string(), message: z.string() }),
});
