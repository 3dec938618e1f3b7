/** One model a server offers. */
export interface ModelInfo {
  id: string;
  /** A display name where the provider gives one. */
  name?: string;
}

/** A model with its display name where the server gives one. */
export function withName(id: string, name: string | null | undefined): ModelInfo {
  return name ? { id, name } : { id };
}
