import type { ProviderManifest } from '../provider-manifest.ts';

/** OpenAI's Chat Completions and every server that speaks it (LM Studio, llama.cpp, vLLM, Ollama's `/v1`). */
export const openaiProvider: ProviderManifest = {
  defaultBaseUrl: 'https://api.openai.com/v1',
  apiKeyEnv: 'OPENAI_API_KEY',
  serverHint: 'is the server running (OpenAI-compatible: Ollama, LM Studio, llama.cpp, vLLM)? Check the base URL.',
  placeholders: {
    baseUrl: 'https://api.openai.com/v1 — LM Studio: http://127.0.0.1:1234/v1, Ollama: http://127.0.0.1:11434/v1',
    model: 'e.g. gpt-4o-mini, or the model your server has loaded',
    apiKeyEnv: 'OPENAI_API_KEY (none for a local server)',
  },
  docsSection: 'docs/providers.md, "Servers" (OpenAI, LM Studio, llama.cpp, vLLM, OpenRouter)',
};
