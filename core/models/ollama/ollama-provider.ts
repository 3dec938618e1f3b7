import { z } from 'zod';
import { parseModelChunk } from '../http/parse-model-chunk.ts';
import type { ProviderManifest } from '../provider-manifest.ts';
import { createOllamaAdapter } from './create-ollama-adapter.ts';
import { ollamaContextWindow } from './ollama-context-window.ts';
import { ollamaFacts } from './ollama-facts.ts';
import { ollamaRootUrl } from './ollama-root-url.ts';
import { probeOllama } from './probe-ollama.ts';

const tagsSchema = z.object({ models: z.array(z.object({ name: z.string() })) });

/** Ollama's native `/api/chat`: the local server tried first when no provider is chosen. */
export const ollamaProvider = {
  ...ollamaFacts,
  createAdapter: createOllamaAdapter,
  listModels: {
    url: (baseUrl: string) => `${ollamaRootUrl(baseUrl)}/api/tags`,
    parse: (text: string) =>
      parseModelChunk({ provider: ollamaFacts.id, text, schema: tagsSchema }).models.map((model) => ({
        id: model.name,
      })),
  },
  lookupWindow: ollamaContextWindow,
  probe: { answers: probeOllama, skipVariable: 'HOME_AGENT_NO_OLLAMA_PROBE' },
} satisfies ProviderManifest;
