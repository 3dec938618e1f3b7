import type { ModelAdapter } from '../../../core/models/model-adapter.ts';
import { createAnthropicAdapter } from '../../../core/models/anthropic/create-anthropic-adapter.ts';
import { createGeminiAdapter } from '../../../core/models/gemini/create-gemini-adapter.ts';
import { createOllamaAdapter } from '../../../core/models/ollama/create-ollama-adapter.ts';
import { createOpenAiAdapter } from '../../../core/models/openai/create-openai-adapter.ts';
import type { ModelAdapterOptions } from '../../../core/models/adapter-options.ts';

export type Provider = 'openai' | 'anthropic' | 'gemini' | 'ollama';

/** An adapter of each format pointed at a loopback server, with test-sized retries and timeouts. */
export function adapterFor(
  provider: Provider,
  baseUrl: string,
  overrides: Partial<ModelAdapterOptions> = {},
): ModelAdapter {
  const options: ModelAdapterOptions = {
    model: 'test-model',
    apiKey: 'sk-test-secret-key',
    maxRetries: 0,
    retryBaseDelayMs: 1,
    ...overrides,
  };
  switch (provider) {
    case 'openai':
      return createOpenAiAdapter({ baseUrl: `${baseUrl}/v1`, ...options });
    case 'anthropic':
      return createAnthropicAdapter({ baseUrl, ...options });
    case 'gemini':
      return createGeminiAdapter({ baseUrl, ...options });
    case 'ollama':
      return createOllamaAdapter({ baseUrl, ...options });
  }
}

/** The content type each framing is served with. */
export function contentTypeFor(framing: string): string {
  if (framing.startsWith('ndjson')) return 'application/x-ndjson';
  if (framing.startsWith('json-array')) return 'application/json';
  return 'text/event-stream';
}
