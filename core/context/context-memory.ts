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

/** Which learned windows to forget: those of a base URL (trailing slashes ignored), of a model, of both; none given: all. */
export interface WindowFilter {
  baseUrl?: string;
  model?: string;
}

/** A learned window that was forgotten. */
export interface ForgottenWindow extends ContextKey {
  windowTokens: number;
}

/**
 * Where what was learned is remembered, so the next process starts from it. Core defines it; the
 * host keeps it in the data folder (SQLite). Both methods are synchronous and must not throw for a
 * read; a write that fails may throw (the caller reports it and goes on).
 */
export interface ContextMemory {
  read(key: ContextKey): LearnedContext | undefined;
  write(key: ContextKey, learned: LearnedContext): void;
  /** Forgets the windows `filter` matches (the ratios stay), returning them ordered by base URL and model. */
  forgetWindows(filter: WindowFilter): ForgottenWindow[];
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

  forgetWindows(filter: WindowFilter): ForgottenWindow[] {
    const forgotten: ForgottenWindow[] = [];
    for (const [text, learned] of this.entries) {
      // The map's own keys, written by keyText: not untrusted input.
      const [baseUrl, model] = JSON.parse(text) as [string, string];
      if (learned.windowTokens === undefined || !windowFilterMatches(filter, { baseUrl, model })) continue;
      forgotten.push({ baseUrl, model, windowTokens: learned.windowTokens });
      const rest = { ...learned };
      delete rest.windowTokens;
      this.entries.set(text, rest);
    }
    return forgotten.sort((a, b) => compareText(a.baseUrl, b.baseUrl) || compareText(a.model, b.model));
  }
}

/** Whether `key` is one of those `filter` names. */
export function windowFilterMatches(filter: WindowFilter, key: ContextKey): boolean {
  return (
    (filter.baseUrl === undefined || filter.baseUrl.replace(/\/+$/, '') === key.baseUrl.replace(/\/+$/, '')) &&
    (filter.model === undefined || filter.model === key.model)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The key as one text, the base URL without trailing slashes. */
export function keyText(key: ContextKey): string {
  return JSON.stringify([key.baseUrl.replace(/\/+$/, ''), key.model]);
}
