import type { ProviderManifest } from '../provider-manifest.ts';

/** Anthropic's Messages API. */
export const anthropicProvider: ProviderManifest = {
  defaultBaseUrl: 'https://api.anthropic.com',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  serverHint: 'check the network and the base URL.',
  placeholders: {
    baseUrl: 'https://api.anthropic.com',
    model: 'e.g. claude-sonnet-4-5',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  },
  docsSection: 'docs/providers.md, "Servers" (Anthropic)',
};
