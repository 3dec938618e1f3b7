import { z } from 'zod';

/** The four wire formats Home Agent speaks to model servers. */
export const modelProviderSchema = z.enum(['openai', 'anthropic', 'gemini', 'ollama']);
export type ModelProvider = z.infer<typeof modelProviderSchema>;
export const MODEL_PROVIDERS: readonly ModelProvider[] = modelProviderSchema.options;

/** Every provider a run can use: the two that need no server (the demo planner, a scripted replay), then the wire formats. */
export const providerSchema = z.enum(['demo', 'scripted', ...modelProviderSchema.options]);
export type Provider = z.infer<typeof providerSchema>;
export const PROVIDERS: readonly Provider[] = providerSchema.options;

/** Where each format's server is when no base URL is given. OpenAI's carries its `/v1`. */
export const DEFAULT_BASE_URLS: Readonly<Record<ModelProvider, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
  ollama: 'http://127.0.0.1:11434',
};

/** The environment variable that holds each provider's key by default (`--api-key-env` overrides it). */
export const DEFAULT_API_KEY_ENV: Readonly<Record<ModelProvider, string | undefined>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
  ollama: undefined,
};

/** What to say when nothing answers at the base URL. */
export const SERVER_HINTS: Readonly<Record<ModelProvider, string>> = {
  openai: 'is the server running (OpenAI-compatible: Ollama, LM Studio, llama.cpp, vLLM)? Check the base URL.',
  anthropic: 'check the network and the base URL.',
  gemini: 'check the network and the base URL.',
  ollama: 'is Ollama running? Start it with `ollama serve`.',
};
