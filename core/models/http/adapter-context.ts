import { lookupContextWindow } from '../../context/lookup-context-window.ts';
import type { ModelAdapterOptions } from '../adapter-options.ts';
import type { ModelContextInfo } from '../model-adapter.ts';
import type { ModelProvider } from '../provider-defaults.ts';
import { providerHeaders } from '../provider-headers.ts';

/**
 * What an HTTP adapter says of its model's context: its server and name, the reply cap it sends,
 * and a look-up of the window with the adapter's own key and headers.
 */
export function adapterContext(spec: {
  provider: ModelProvider;
  options: ModelAdapterOptions;
  baseUrl: string;
  /** The reply cap every request sends, when it differs from `options.maxTokens` (Anthropic's default). */
  maxTokens?: number;
  setsContextLength?: boolean;
}): ModelContextInfo {
  const { provider, options, baseUrl } = spec;
  const maxTokens = spec.maxTokens ?? options.maxTokens;
  const headers = { ...providerHeaders(provider, options.apiKey), ...options.headers };
  return {
    provider,
    baseUrl,
    model: options.model,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(spec.setsContextLength ? { setsContextLength: true } : {}),
    lookupWindow: (signal) => lookupContextWindow({ provider, baseUrl, model: options.model, headers, signal }),
  };
}
