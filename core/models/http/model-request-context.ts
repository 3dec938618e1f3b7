/** What error messages need to know about a request: who, where, which model, which secrets to hide. */
export interface ModelRequestContext {
  /** `openai`, `anthropic`, `gemini`, `ollama`. */
  provider: string;
  baseUrl: string;
  url: string;
  model: string;
  /** Said when nothing answers, e.g. "is Ollama running? Start it with `ollama serve`". */
  serverHint: string;
  /** Strings never to print (the API key). */
  secrets: string[];
}
