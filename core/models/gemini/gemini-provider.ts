import type { ProviderManifest } from '../provider-manifest.ts';

/** Google Gemini's generateContent API (an AI Studio key). */
export const geminiProvider: ProviderManifest = {
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  apiKeyEnv: 'GEMINI_API_KEY',
  serverHint: 'check the network and the base URL.',
  placeholders: {
    baseUrl: 'https://generativelanguage.googleapis.com',
    model: 'e.g. gemini-2.5-flash',
    apiKeyEnv: 'GEMINI_API_KEY',
  },
  docsSection: 'docs/providers.md, "Servers" (Google Gemini)',
};
