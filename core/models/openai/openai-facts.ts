import type { CompatibleServer, ProviderFacts } from '../provider-manifest.ts';
import { OPENAI_BASE_URL, openaiServer } from './openai-server.ts';

/**
 * OpenAI's Chat Completions and every server that speaks it (LM Studio, llama.cpp, vLLM, and the
 * providers of `compatible`, which the list of providers gives), data only (its adapter: openai-provider.ts).
 */
export function openaiFacts(compatible: readonly CompatibleServer[]) {
  const local = [
    'LM Studio: http://127.0.0.1:1234/v1',
    ...compatible.map((other) => `${other.name}: ${other.baseUrl}`),
  ];
  return {
    ...openaiServer(compatible),
    displayName: 'OpenAI',
    placeholders: {
      baseUrl: `${OPENAI_BASE_URL} — ${local.join(', ')}`,
      model: 'e.g. gpt-4o-mini, or the model your server has loaded',
      apiKeyEnv: 'OPENAI_API_KEY (none for a local server)',
    },
    docsSection: 'docs/providers.md, "Servers" (OpenAI, LM Studio, llama.cpp, vLLM, OpenRouter)',
    // OpenAI's model pages.
    documentedWindows: {
      'gpt-5': 400_000,
      'gpt-4.1': 1_047_576,
      'gpt-4o': 128_000,
      'chatgpt-4o': 128_000,
      'gpt-4-turbo': 128_000,
      'gpt-4': 8_192,
      'gpt-3.5-turbo': 16_385,
      o1: 200_000,
      'o1-mini': 128_000,
      'o1-preview': 128_000,
      o3: 200_000,
      'o4-mini': 200_000,
    },
    examples: {
      models: {
        command: 'home-agent models --provider openai --base-url http://127.0.0.1:1234/v1',
        text: 'An OpenAI-compatible server such as LM Studio.',
      },
    },
  } satisfies ProviderFacts;
}
