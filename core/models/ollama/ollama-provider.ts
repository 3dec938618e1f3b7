import { z } from 'zod';
import { parseModelChunk } from '../http/parse-model-chunk.ts';
import type { ProviderManifest } from '../provider-manifest.ts';
import { createOllamaAdapter } from './create-ollama-adapter.ts';
import { ollamaContextWindow } from './ollama-context-window.ts';
import { ollamaRootUrl } from './ollama-root-url.ts';
import { OLLAMA_TOOL_MODELS, ollamaServer } from './ollama-server.ts';
import { ollamaSettings } from './ollama-settings.ts';
import { probeOllama } from './probe-ollama.ts';

const tagsSchema = z.object({ models: z.array(z.object({ name: z.string() })) });

/** Ollama's native `/api/chat`: the local server tried first when no provider is chosen. */
export const ollamaProvider = {
  ...ollamaServer,
  displayName: 'Ollama',
  placeholders: {
    baseUrl: ollamaServer.defaultBaseUrl,
    model: 'e.g. qwen2.5, llama3.1 (home-agent models --provider ollama lists them)',
    apiKeyEnv: 'none: Ollama needs no key',
  },
  docsSection: 'docs/providers.md, "Servers" and "Server notes" (Ollama)',
  createAdapter: createOllamaAdapter,
  listModels: {
    url: (baseUrl: string) => `${ollamaRootUrl(baseUrl)}/api/tags`,
    parse: (text: string) =>
      parseModelChunk({ provider: ollamaServer.id, text, schema: tagsSchema }).models.map((model) => ({
        id: model.name,
      })),
  },
  lookupWindow: ollamaContextWindow,
  alsoSpeaks: { name: 'Ollama', baseUrl: `${ollamaServer.defaultBaseUrl}/v1`, toolModels: OLLAMA_TOOL_MODELS },
  probe: { answers: probeOllama, skipVariable: 'HOME_AGENT_NO_OLLAMA_PROBE' },
  firstModelHint: 'ollama pull llama3.1',
  settings: ollamaSettings,
  examples: {
    models: { command: 'home-agent models --provider ollama', text: 'The models pulled into the local Ollama.' },
    ask: {
      command: 'home-agent ask --provider ollama --model llama3.1 --sim "what is the temperature?"',
      text: 'A local Ollama as the model (list its models with: home-agent models --provider ollama).',
    },
  },
} satisfies ProviderManifest;
