import { z } from 'zod';
import { endpointUrl } from '../http/endpoint-url.ts';
import { parseModelChunk } from '../http/parse-model-chunk.ts';
import { withName } from '../model-info.ts';
import type { ProviderManifest } from '../provider-manifest.ts';
import { createGeminiAdapter } from './create-gemini-adapter.ts';
import { geminiFacts } from './gemini-facts.ts';

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
  ...geminiFacts,
  createAdapter: createGeminiAdapter,
  listModels: {
    url: (baseUrl: string) => `${endpointUrl({ baseUrl, versionPrefix: '/v1beta', path: '/models' })}?pageSize=1000`,
    // Only the models that can generate content.
    parse: (text: string) =>
      parseModelChunk({ provider: geminiFacts.id, text, schema: listSchema })
        .models.filter(
          (model) =>
            !model.supportedGenerationMethods ||
            model.supportedGenerationMethods.some(
              (method) => method.includes('generateContent') || method.includes('GenerateContent'),
            ),
        )
        .map((model) => withName(model.name.replace(/^models\//, ''), model.displayName)),
  },
} satisfies ProviderManifest;
