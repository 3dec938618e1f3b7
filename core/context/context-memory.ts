/** Which model at which server: what is learned of a context window is kept per key. */
export interface ContextKey {
  /** The base URL as configured, without a trailing slash. */
  baseUrl: string;
  model: string;
}

/** What was learned of a model's context from its server's own answers. */
export interface LearnedContext {
  /** The window a 400 stated (the server keeps no more). */
  windowTokens?: number;
  /** Bytes of a request (as Home Agent counts them) per token, measured from the usage the server reported. */
  bytesPerToken?: number;
}

/**
 * Where what was learned is remembered, so the next process starts from it. Core defines it; the
 * host keeps it in the data folder (SQLite). Both methods are synchronous and must not throw for a
 * read; a write that fails may throw (the caller reports it and goes on).
 */
export interface ContextMemory {
  read(key: ContextKey): LearnedContext | undefined;
  write(key: ContextKey, learned: LearnedContext): void;
}

/** A ContextMemory for one process (tests, embedders without a data folder). */
export class InMemoryContextMemory implements ContextMemory {
  readonly entries = new Map<string, LearnedContext>();

  read(key: ContextKey): LearnedContext | undefined {
    const found = this.entries.get(keyText(key));
    return found ? { ...found } : undefined;
  }

  write(key: ContextKey, learned: LearnedContext): void {
    this.entries.set(keyText(key), { ...learned });
  }
}

/** The key as one text, the base URL without trailing slashes. */
export function keyText(key: ContextKey): string {
  return JSON.stringify([key.baseUrl.replace(/\/+$/, ''), key.model]);
}
