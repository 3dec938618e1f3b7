/** What Home Agent knows of one wire format's servers, declared in that provider's own folder. */
export interface ProviderManifest {
  /** Where its server is when no base URL is given (OpenAI's carries its `/v1`). */
  defaultBaseUrl: string;
  /** The environment variable that holds its key by default (`--api-key-env` overrides it); none for a local server. */
  apiKeyEnv?: string;
  /** What to say when nothing answers at the base URL. */
  serverHint: string;
  /** What the Settings form shows in an empty field while this provider is chosen. */
  placeholders: { baseUrl: string; model: string; apiKeyEnv: string };
  /** Where docs/providers.md speaks of its servers: the section a person should read. */
  docsSection: string;
}
