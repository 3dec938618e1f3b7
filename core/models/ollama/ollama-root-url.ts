/** The Ollama server root from a base URL, also when given its OpenAI path (`…/v1`) or `…/api`. */
export function ollamaRootUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/(v1|api)$/, '');
}
