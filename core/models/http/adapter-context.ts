import type { ModelAdapterOptions } from '../adapter-options.ts';
import type { ContextLengthSetting, ModelContextInfo } from '../model-adapter.ts';
import type { ModelProvider } from '../provider-defaults.ts';
import type { WindowLookup } from '../provider-manifest.ts';
import type { ProviderServer } from '../provider-server.ts';
import { deadlineSignal } from '../../text/deadline-signal.ts';

/** All look-ups of one model give up together after this long: a turn is never held up longer. */
export const CONTEXT_LOOKUP_TIMEOUT_MS = 2_000;

/**
 * What an HTTP adapter says of its model's context: its server and name, the reply cap it sends,
 * and a look-up of the window (the provider's own, within 2 s) with the adapter's key and headers.
 */
export function adapterContext(spec: {
  server: ProviderServer;
  options: ModelAdapterOptions;
  baseUrl: string;
  /** The reply cap every request sends, when it differs from `options.maxTokens` (Anthropic's default). */
  maxTokens?: number;
  /** How the provider asks its servers for a window; absent: they are not asked. */
  lookupWindow?: (lookup: WindowLookup) => Promise<number | undefined>;
  contextLengthSetting?: ContextLengthSetting;
}): ModelContextInfo {
  const { server, options, baseUrl } = spec;
  const maxTokens = spec.maxTokens ?? options.maxTokens;
  const headers = { ...server.headers(options.apiKey), ...options.headers };
  const { lookupWindow } = spec;
  return {
    provider: server.id as ModelProvider,
    baseUrl,
    model: options.model,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(spec.contextLengthSetting ? { contextLengthSetting: spec.contextLengthSetting } : {}),
    lookupWindow: async (signal) =>
      lookupWindow?.({ baseUrl, model: options.model, headers, signal: withinLookupDeadline(signal) }),
  };
}

/** The signal of one look-up: the caller's, ended at the latest after CONTEXT_LOOKUP_TIMEOUT_MS. */
export function withinLookupDeadline(signal: AbortSignal, timeoutMs = CONTEXT_LOOKUP_TIMEOUT_MS): AbortSignal {
  return AbortSignal.any([signal, deadlineSignal(timeoutMs)]);
}
