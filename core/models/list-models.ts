import { z } from 'zod';
import { endpointUrl } from './http/endpoint-url.ts';
import { fetchModelStream } from './http/fetch-model-stream.ts';
import { modelStreamRequest } from './http/model-stream-request.ts';
import { parseModelChunk } from './http/parse-model-chunk.ts';
import { DEFAULT_BASE_URLS, SERVER_HINTS, type ModelProvider } from './provider-defaults.ts';
import { providerHeaders } from './provider-headers.ts';
import { ollamaRootUrl } from './ollama/ollama-root-url.ts';

/** One model a server offers. */
export interface ModelInfo {
  id: string;
  /** A display name where the provider gives one. */
  name?: string;
}

const openAiList = z.object({ data: z.array(z.object({ id: z.string() })) });
const anthropicList = z.object({ data: z.array(z.object({ id: z.string(), display_name: z.string().nullish() })) });
const geminiList = z.object({
  models: z
    .array(
      z.object({
        name: z.string(),
        displayName: z.string().nullish(),
        supportedGenerationMethods: z.array(z.string()).nullish(),
      }),
    )
    .default([]),
});
const ollamaList = z.object({ models: z.array(z.object({ name: z.string() })) });

const LIST_TIMEOUT_MS = 15_000;

/**
 * The models a server offers: OpenAI-compatible `/v1/models`, Anthropic `/v1/models`, Gemini
 * `/v1beta/models` (only those that can generate content), Ollama `/api/tags`. Throws a ModelError.
 */
export async function listModels(options: {
  provider: ModelProvider;
  baseUrl?: string;
  apiKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}): Promise<ModelInfo[]> {
  const { provider } = options;
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URLS[provider];
  const url = listUrl(provider, baseUrl);
  const timeoutMs = options.timeoutMs ?? LIST_TIMEOUT_MS;
  const request = modelStreamRequest({
    adapter: {
      model: '(listing models)',
      apiKey: options.apiKey,
      firstByteTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      maxRetries: 1,
    },
    provider,
    baseUrl,
    url,
    serverHint: SERVER_HINTS[provider],
    headers: providerHeaders(provider, options.apiKey),
    method: 'GET',
    signal: options.signal ?? new AbortController().signal,
  });
  let text = '';
  for await (const chunk of fetchModelStream(request)) text += chunk;
  switch (provider) {
    case 'openai':
      return parseModelChunk({ provider, text, schema: openAiList }).data.map((model) => ({ id: model.id }));
    case 'anthropic':
      return parseModelChunk({ provider, text, schema: anthropicList }).data.map((model) =>
        withName(model.id, model.display_name),
      );
    case 'gemini':
      return parseModelChunk({ provider, text, schema: geminiList })
        .models.filter(
          (model) =>
            !model.supportedGenerationMethods ||
            model.supportedGenerationMethods.some(
              (method) => method.includes('generateContent') || method.includes('GenerateContent'),
            ),
        )
        .map((model) => withName(model.name.replace(/^models\//, ''), model.displayName));
    case 'ollama':
      return parseModelChunk({ provider, text, schema: ollamaList }).models.map((model) => ({ id: model.name }));
  }
}

function listUrl(provider: ModelProvider, baseUrl: string): string {
  switch (provider) {
    case 'openai':
      return endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/models', onlyOnBareHost: true });
    case 'anthropic':
      return endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/models' });
    case 'gemini':
      return `${endpointUrl({ baseUrl, versionPrefix: '/v1beta', path: '/models' })}?pageSize=1000`;
    case 'ollama':
      return `${ollamaRootUrl(baseUrl)}/api/tags`;
  }
}

function withName(id: string, name: string | null | undefined): ModelInfo {
  return name ? { id, name } : { id };
}
