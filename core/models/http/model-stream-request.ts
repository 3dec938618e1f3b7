import {
  DEFAULT_FIRST_BYTE_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  type ModelAdapterOptions,
} from '../adapter-options.ts';
import type { ProviderServer } from '../provider-server.ts';
import type { ModelStreamRequest } from './fetch-model-stream.ts';

/**
 * Fills a ModelStreamRequest from an adapter's options and its provider's server (its headers, hint
 * and advice), with the defaults for what they leave out.
 */
export function modelStreamRequest(options: {
  adapter: ModelAdapterOptions;
  server: ProviderServer;
  baseUrl: string;
  url: string;
  /** Headers of the request itself (`accept`), under the server's and the adapter's. */
  headers?: Record<string, string>;
  body?: unknown;
  method?: 'GET' | 'POST';
  signal: AbortSignal;
}): ModelStreamRequest {
  const { adapter, server } = options;
  const request: ModelStreamRequest = {
    context: {
      provider: server.id,
      baseUrl: options.baseUrl,
      url: options.url,
      model: adapter.model,
      serverHint: server.serverHint,
      secrets: adapter.apiKey ? [adapter.apiKey] : [],
      ...(server.toolSupportAdvice ? { toolSupportAdvice: server.toolSupportAdvice } : {}),
      ...(server.modelNotFoundAdvice ? { modelNotFoundAdvice: server.modelNotFoundAdvice(adapter.model) } : {}),
    },
    headers: { ...options.headers, ...server.headers(adapter.apiKey), ...adapter.headers },
    signal: options.signal,
    firstByteTimeoutMs: adapter.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS,
    idleTimeoutMs: adapter.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    maxRetries: adapter.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryBaseDelayMs: adapter.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    maxRetryDelayMs: adapter.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
  };
  if (options.body !== undefined) request.body = options.body;
  if (options.method !== undefined) request.method = options.method;
  if (adapter.onRetry) request.onRetry = adapter.onRetry;
  return request;
}
