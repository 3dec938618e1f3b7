import { z } from 'zod';
import { endpointUrl } from '../http/endpoint-url.ts';
import { parseModelChunk } from '../http/parse-model-chunk.ts';
import { withName } from '../model-info.ts';
import type { ProviderManifest } from '../provider-manifest.ts';
import { createGeminiAdapter } from './create-gemini-adapter.ts';
import { geminiServer } from './gemini-server.ts';

const listSchema = z.object({
  models: z
    .array(
      z.object({
        name: z.string(),
        displayName: z.string().nullish(),
        supportedGenerationMethods: z.array(z.string()).nullish(),
      }),
    )
    .default([]),
});

/** Google Gemini's generateContent API (an AI Studio key). */
export const geminiProvider = {
  ...geminiServer,
  displayName: 'Google Gemini',
  placeholders: {
    baseUrl: geminiServer.defaultBaseUrl,
    model: 'e.g. gemini-2.5-flash',
    apiKeyEnv: 'GEMINI_API_KEY',
  },
  docsSection: 'docs/providers.md, "Servers" (Google Gemini)',
  createAdapter: createGeminiAdapter,
  listModels: {
    url: (baseUrl: string) => `${endpointUrl({ baseUrl, versionPrefix: '/v1beta', path: '/models' })}?pageSize=1000`,
    // Only the models that can generate content.
    parse: (text: string) =>
      parseModelChunk({ provider: geminiServer.id, text, schema: listSchema })
        .models.filter(
          (model) =>
            !model.supportedGenerationMethods ||
            model.supportedGenerationMethods.some(
              (method) => method.includes('generateContent') || method.includes('GenerateContent'),
            ),
        )
        .map((model) => withName(model.name.replace(/^models\//, ''), model.displayName)),
  },
  // Google's model pages.
  documentedWindows: {
    'gemini-1.5-pro': 2_097_152,
    'gemini-1.5-flash': 1_048_576,
    'gemini-2.': 1_048_576,
    'gemini-3': 1_048_576,
  },
} satisfies ProviderManifest;
