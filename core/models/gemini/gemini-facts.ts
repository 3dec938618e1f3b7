import type { ProviderFacts } from '../provider-manifest.ts';
import { geminiServer } from './gemini-server.ts';

/** Google Gemini's generateContent API (an AI Studio key), data only (its adapter: gemini-provider.ts). */
export const geminiFacts = {
  ...geminiServer,
  displayName: 'Google Gemini',
  placeholders: {
    baseUrl: geminiServer.defaultBaseUrl,
    model: 'e.g. gemini-2.5-flash',
    apiKeyEnv: 'GEMINI_API_KEY',
  },
  docsSection: 'docs/providers.md, "Servers" (Google Gemini)',
  // Google's model pages.
  documentedWindows: {
    'gemini-1.5-pro': 2_097_152,
    'gemini-1.5-flash': 1_048_576,
    'gemini-2.': 1_048_576,
    'gemini-3': 1_048_576,
  },
} satisfies ProviderFacts;
