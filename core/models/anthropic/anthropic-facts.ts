import type { ProviderFacts } from '../provider-manifest.ts';
import { anthropicServer } from './anthropic-server.ts';

/** Anthropic's Messages API, data only (its adapter: anthropic-provider.ts). */
export const anthropicFacts = {
  ...anthropicServer,
  displayName: 'Anthropic',
  placeholders: {
    baseUrl: anthropicServer.defaultBaseUrl,
    model: 'e.g. claude-sonnet-4-5',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  },
  docsSection: 'docs/providers.md, "Servers" (Anthropic)',
  // Anthropic's model pages.
  documentedWindows: { 'claude-': 200_000, 'claude-2': 100_000, 'claude-instant': 100_000 },
} satisfies ProviderFacts;
