import { z } from 'zod';
import { endpointUrl } from '../http/endpoint-url.ts';
import { parseModelChunk } from '../http/parse-model-chunk.ts';
import { withName } from '../model-info.ts';
import type { ProviderManifest } from '../provider-manifest.ts';
import { anthropicFacts } from './anthropic-facts.ts';
import { createAnthropicAdapter } from './create-anthropic-adapter.ts';

const listSchema = z.object({ data: z.array(z.object({ id: z.string(), display_name: z.string().nullish() })) });

/** Anthropic's Messages API. */
export const anthropicProvider = {
  ...anthropicFacts,
  createAdapter: createAnthropicAdapter,
  listModels: {
    url: (baseUrl: string) => endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/models' }),
    parse: (text: string) =>
      parseModelChunk({ provider: anthropicFacts.id, text, schema: listSchema }).data.map((model) =>
        withName(model.id, model.display_name),
      ),
  },
} satisfies ProviderManifest;
