/** What error messages need to know about a request: who, where, which model, which secrets to hide. */
export interface ModelRequestContext {
  /** The provider's id (`--provider`). */
  provider: string;
  baseUrl: string;
  url: string;
  model: string;
  /** Said when nothing answers (the provider's server hint). */
  serverHint: string;
  /** Strings never to print (the API key). */
  secrets: string[];
  /** Which models take tools, said after a refusal of tools (the provider's advice). */
  toolSupportAdvice?: string;
  /** How to get a model the server does not have, said after "List the models with …". */
  modelNotFoundAdvice?: string;
}
