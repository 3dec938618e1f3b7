import type { ProviderServer } from '../provider-server.ts';

export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic's Messages API: its key in `x-api-key`, its version in every request. */
export const anthropicServer: ProviderServer = {
  id: 'anthropic',
  defaultBaseUrl: 'https://api.anthropic.com',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  serverHint: 'check the network and the base URL.',
  headers: (apiKey) => ({ 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) }),
};
