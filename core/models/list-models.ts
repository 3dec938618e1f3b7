import { fetchModelStream } from './http/fetch-model-stream.ts';
import { modelStreamRequest } from './http/model-stream-request.ts';
import type { ModelInfo } from './model-info.ts';
import type { ModelProvider } from './provider-defaults.ts';
import { providerManifest } from './provider-manifests.ts';

export type { ModelInfo } from './model-info.ts';

const LIST_TIMEOUT_MS = 15_000;

/** The models a server offers, asked where its provider's manifest says (only those it can use). Throws a ModelError. */
export async function listModels(options: {
  provider: ModelProvider;
  baseUrl?: string;
  apiKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}): Promise<ModelInfo[]> {
  const manifest = providerManifest(options.provider);
  const baseUrl = options.baseUrl ?? manifest.defaultBaseUrl;
  const timeoutMs = options.timeoutMs ?? LIST_TIMEOUT_MS;
  const request = modelStreamRequest({
    adapter: {
      model: '(listing models)',
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      firstByteTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      maxRetries: 1,
    },
    server: manifest,
    baseUrl,
    url: manifest.listModels.url(baseUrl),
    method: 'GET',
    signal: options.signal ?? new AbortController().signal,
  });
  let text = '';
  for await (const chunk of fetchModelStream(request)) text += chunk;
  return manifest.listModels.parse(text);
}
