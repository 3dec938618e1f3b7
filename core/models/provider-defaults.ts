import { z } from 'zod';
import type { ProviderManifest } from './provider-manifest.ts';
import { anthropicProvider } from './anthropic/anthropic-provider.ts';
import { geminiProvider } from './gemini/gemini-provider.ts';
import { ollamaProvider } from './ollama/ollama-provider.ts';
import { openaiProvider } from './openai/openai-provider.ts';

/** The four wire formats Home Agent speaks to model servers. */
export const modelProviderSchema = z.enum(['openai', 'anthropic', 'gemini', 'ollama']);
export type ModelProvider = z.infer<typeof modelProviderSchema>;
export const MODEL_PROVIDERS: readonly ModelProvider[] = modelProviderSchema.options;

/** Every provider a run can use: the two that need no server (the demo planner, a scripted replay), then the wire formats. */
export const providerSchema = z.enum(['demo', 'scripted', ...modelProviderSchema.options]);
export type Provider = z.infer<typeof providerSchema>;
export const PROVIDERS: readonly Provider[] = providerSchema.options;

/** Each wire format's manifest, from its own folder: the one list of what Home Agent knows of them. */
export const PROVIDER_MANIFESTS: Readonly<Record<ModelProvider, ProviderManifest>> = {
  openai: openaiProvider,
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  ollama: ollamaProvider,
};

function eachProvider<T>(pick: (manifest: ProviderManifest) => T): Readonly<Record<ModelProvider, T>> {
  return Object.fromEntries(
    MODEL_PROVIDERS.map((provider) => [provider, pick(PROVIDER_MANIFESTS[provider])]),
  ) as Record<ModelProvider, T>;
}

/** Where each format's server is when no base URL is given. OpenAI's carries its `/v1`. */
export const DEFAULT_BASE_URLS = eachProvider((manifest) => manifest.defaultBaseUrl);

/** The environment variable that holds each provider's key by default (`--api-key-env` overrides it). */
export const DEFAULT_API_KEY_ENV = eachProvider((manifest) => manifest.apiKeyEnv);

/** What to say when nothing answers at the base URL. */
export const SERVER_HINTS = eachProvider((manifest) => manifest.serverHint);
