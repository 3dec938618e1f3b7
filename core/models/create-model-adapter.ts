import { z } from 'zod';
import type { ModelAdapterOptions } from './adapter-options.ts';
import { createAnthropicAdapter } from './anthropic/create-anthropic-adapter.ts';
import { createGeminiAdapter } from './gemini/create-gemini-adapter.ts';
import type { ModelAdapter } from './model-adapter.ts';
import { createOllamaAdapter } from './ollama/create-ollama-adapter.ts';
import { createOpenAiAdapter } from './openai/create-openai-adapter.ts';
import { DEFAULT_BASE_URLS, modelProviderSchema } from './provider-defaults.ts';

/** A model as configured (settings, CLI flags): which format, where, which model, which key. */
export const modelConfigSchema = z.object({
  provider: modelProviderSchema,
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1),
  apiKey: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeouts: z
    .object({
      firstByteMs: z.number().int().positive().optional(),
      idleMs: z.number().int().positive().optional(),
    })
    .optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
  maxTokens: z.number().int().positive().optional(),
});

export type ModelConfig = z.infer<typeof modelConfigSchema>;

/**
 * The adapter for a configuration, validated first (a bad config throws a ZodError naming the
 * field). Each provider falls back to its default base URL (`DEFAULT_BASE_URLS`).
 */
export function createModelAdapter(config: ModelConfig): ModelAdapter {
  const valid = modelConfigSchema.parse(config);
  const options: ModelAdapterOptions = {
    model: valid.model,
    baseUrl: valid.baseUrl ?? DEFAULT_BASE_URLS[valid.provider],
  };
  if (valid.apiKey !== undefined) options.apiKey = valid.apiKey;
  if (valid.headers !== undefined) options.headers = valid.headers;
  if (valid.timeouts?.firstByteMs !== undefined) options.firstByteTimeoutMs = valid.timeouts.firstByteMs;
  if (valid.timeouts?.idleMs !== undefined) options.idleTimeoutMs = valid.timeouts.idleMs;
  if (valid.maxRetries !== undefined) options.maxRetries = valid.maxRetries;
  if (valid.maxTokens !== undefined) options.maxTokens = valid.maxTokens;
  switch (valid.provider) {
    case 'openai':
      return createOpenAiAdapter(options);
    case 'anthropic':
      return createAnthropicAdapter(options);
    case 'gemini':
      return createGeminiAdapter(options);
    case 'ollama':
      return createOllamaAdapter(options);
  }
}
