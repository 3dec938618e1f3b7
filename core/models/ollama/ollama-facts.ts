import type { ProviderFacts } from '../provider-manifest.ts';
import { OLLAMA_TOOL_MODELS, ollamaServer } from './ollama-server.ts';
import { ollamaSettings } from './ollama-settings.ts';

/** Ollama's native `/api/chat`, data only (its adapter and probe: ollama-provider.ts). */
export const ollamaFacts = {
  ...ollamaServer,
  displayName: 'Ollama',
  placeholders: {
    baseUrl: ollamaServer.defaultBaseUrl,
    model: 'e.g. qwen2.5, llama3.1 (home-agent models --provider ollama lists them)',
    apiKeyEnv: 'none: Ollama needs no key',
  },
  docsSection: 'docs/providers.md, "Servers" and "Server notes" (Ollama)',
  alsoSpeaks: { name: 'Ollama', baseUrl: `${ollamaServer.defaultBaseUrl}/v1`, toolModels: OLLAMA_TOOL_MODELS },
  firstModelHint: 'ollama pull llama3.1',
  settings: ollamaSettings,
  examples: {
    models: { command: 'home-agent models --provider ollama', text: 'The models pulled into the local Ollama.' },
    ask: {
      command: 'home-agent ask --provider ollama --model llama3.1 --sim "what is the temperature?"',
      text: 'A local Ollama as the model (list its models with: home-agent models --provider ollama).',
    },
  },
} satisfies ProviderFacts;
