import { z } from 'zod';
import { endpointUrl } from '../http/endpoint-url.ts';
import { parseModelChunk } from '../http/parse-model-chunk.ts';
import type { ProviderManifest } from '../provider-manifest.ts';
import { createOpenAiAdapter } from './create-openai-adapter.ts';
import type { openaiFacts } from './openai-facts.ts';
import { openAiContextWindow } from './openai-context-window.ts';

const listSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/** OpenAI's Chat Completions and every server that speaks it, from its facts (openai-facts.ts). */
export function openaiProvider(facts: ReturnType<typeof openaiFacts>) {
  return {
    ...facts,
    createAdapter: (options) => createOpenAiAdapter(options, facts),
    listModels: {
      url: (baseUrl: string) => endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/models', onlyOnBareHost: true }),
      parse: (text: string) =>
        parseModelChunk({ provider: facts.id, text, schema: listSchema }).data.map((model) => ({ id: model.id })),
    },
    lookupWindow: openAiContextWindow,
  } satisfies ProviderManifest;
}
