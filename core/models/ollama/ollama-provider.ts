import type { ProviderManifest } from '../provider-manifest.ts';

/** Ollama's native `/api/chat`. */
export const ollamaProvider: ProviderManifest = {
  defaultBaseUrl: 'http://127.0.0.1:11434',
  serverHint: 'is Ollama running? Start it with `ollama serve`.',
  placeholders: {
    baseUrl: 'http://127.0.0.1:11434',
    model: 'e.g. qwen2.5, llama3.1 (home-agent models --provider ollama lists them)',
    apiKeyEnv: 'none: Ollama needs no key',
  },
  docsSection: 'docs/providers.md, "Servers" and "Server notes" (Ollama)',
};
