/**
 * What every request to one provider's servers needs: who it is, where its server is by default,
 * how a request signs in, and what to say when the server fails. Declared in the provider's folder
 * (its adapter reads it there), and part of its manifest.
 */
export interface ProviderServer {
  /** The value people choose it by (`--provider`, the setting `provider`). */
  id: string;
  /** Where its server is when no base URL is given. */
  defaultBaseUrl: string;
  /** The environment variable that holds its key by default (`--api-key-env` overrides it); none for a local server. */
  apiKeyEnv?: string;
  /** What to say when nothing answers at the base URL. */
  serverHint: string;
  /** The authentication (and version) headers it wants; none but the version without a key. */
  headers(apiKey: string | undefined): Record<string, string>;
  /** What to do after its server refused tools for the model: which models take them. */
  toolSupportAdvice?: string;
  /** Said after "List the models with …" when its server has no such model (how to get it). */
  modelNotFoundAdvice?(model: string): string;
}

/** The usual `authorization: Bearer <key>` header, or none without a key. */
export function bearerHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}
