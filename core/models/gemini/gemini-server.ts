import type { ProviderServer } from '../provider-server.ts';

/** Google Gemini's generateContent API (an AI Studio key, in `x-goog-api-key`). */
export const geminiServer: ProviderServer = {
  id: 'gemini',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  apiKeyEnv: 'GEMINI_API_KEY',
  serverHint: 'check the network and the base URL.',
  headers: (apiKey): Record<string, string> => (apiKey ? { 'x-goog-api-key': apiKey } : {}),
};
