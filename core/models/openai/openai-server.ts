import type { CompatibleServer } from '../provider-manifest.ts';
import { bearerHeaders, type ProviderServer } from '../provider-server.ts';

/** OpenAI's own API; the base URL carries its `/v1`. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The compatible servers that are no provider of their own, as the hints name them. */
const OTHER_SERVERS = ['LM Studio', 'llama.cpp', 'vLLM'];

/**
 * OpenAI's Chat Completions and every server that speaks it: the hints name the compatible servers,
 * those that are providers of their own first (`compatible`, from the list of providers).
 */
export function openaiServer(compatible: readonly CompatibleServer[] = []): ProviderServer {
  const names = [...compatible.map((server) => server.name), ...OTHER_SERVERS];
  return {
    id: 'openai',
    defaultBaseUrl: OPENAI_BASE_URL,
    apiKeyEnv: 'OPENAI_API_KEY',
    serverHint: `is the server running (OpenAI-compatible: ${names.join(', ')})? Check the base URL.`,
    headers: bearerHeaders,
    toolSupportAdvice: [
      ...compatible.map((server) => `for ${server.name} e.g. ${server.toolModels}`),
      'for llama.cpp start the server with --jinja',
    ].join('; '),
  };
}
