import type { ProviderServer } from '../provider-server.ts';

/** Models Ollama offers that take tools (said after a model refused them). */
export const OLLAMA_TOOL_MODELS = 'qwen2.5, llama3.1';

/** Ollama's native `/api/chat`: a local server that needs no key. */
export const ollamaServer: ProviderServer = {
  id: 'ollama',
  defaultBaseUrl: 'http://127.0.0.1:11434',
  serverHint: 'is Ollama running? Start it with `ollama serve`.',
  headers: () => ({}),
  toolSupportAdvice: `for Ollama e.g. ${OLLAMA_TOOL_MODELS}; for llama.cpp start the server with --jinja`,
  modelNotFoundAdvice: (model) => ` or pull it with \`ollama pull ${model}\``,
};
