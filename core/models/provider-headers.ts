import type { ModelProvider } from './provider-defaults.ts';

export const ANTHROPIC_VERSION = '2023-06-01';

/** The authentication (and version) headers each provider wants; none without a key. */
export function providerHeaders(provider: ModelProvider, apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (provider === 'anthropic') headers['anthropic-version'] = ANTHROPIC_VERSION;
  if (!apiKey) return headers;
  if (provider === 'anthropic') headers['x-api-key'] = apiKey;
  else if (provider === 'gemini') headers['x-goog-api-key'] = apiKey;
  else headers.authorization = `Bearer ${apiKey}`;
  return headers;
}
