/** The four wire formats Home Agent speaks. */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'gemini', 'ollama'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** Where each format's server is when no base URL is given. OpenAI's carries its `/v1`. */
export const DEFAULT_BASE_URLS: Readonly<Record<ModelProvider, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
  ollama: 'http://127.0.0.1:11434',
};

/** The environment variable that holds each provider's key by default (`--api-key-env` overrides it). */
export const DEFAULT_API_KEY_ENV: Readonly<Record<ModelProvider, string | undefined>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
  ollama: undefined,
};

/** What to say when nothing answers at the base URL. */
export const SERVER_HINTS: Readonly<Record<ModelProvider, string>> = {
  openai: 'is the server running (OpenAI-compatible: Ollama, LM Studio, llama.cpp, vLLM)? Check the base URL.',
  anthropic: 'check the network and the base URL.',
  gemini: 'check the network and the base URL.',
  ollama: 'is Ollama running? Start it with `ollama serve`.',
};
