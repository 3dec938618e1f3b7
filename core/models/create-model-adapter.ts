import { z } from 'zod';
import type { ModelAdapterOptions } from './adapter-options.ts';
import type { ModelAdapter } from './model-adapter.ts';
import { modelProviderSchema } from './provider-defaults.ts';
import { providerManifest } from './provider-manifests.ts';

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
 * field), made by its provider's manifest. Each provider falls back to its default base URL.
 */
export function createModelAdapter(config: ModelConfig): ModelAdapter {
  const valid = modelConfigSchema.parse(config);
  const manifest = providerManifest(valid.provider);
  const options: ModelAdapterOptions = { model: valid.model, baseUrl: valid.baseUrl ?? manifest.defaultBaseUrl };
  if (valid.apiKey !== undefined) options.apiKey = valid.apiKey;
  if (valid.headers !== undefined) options.headers = valid.headers;
  if (valid.timeouts?.firstByteMs !== undefined) options.firstByteTimeoutMs = valid.timeouts.firstByteMs;
  if (valid.timeouts?.idleMs !== undefined) options.idleTimeoutMs = valid.timeouts.idleMs;
  if (valid.maxRetries !== undefined) options.maxRetries = valid.maxRetries;
  if (valid.maxTokens !== undefined) options.maxTokens = valid.maxTokens;
  return manifest.createAdapter(options);
}
