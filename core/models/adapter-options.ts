/** What a retry looks like to whoever wants to show it ("rate limited, retrying in 2 s"). */
export interface ModelRetryEvent {
  /** 1 for the first retry. */
  attempt: number;
  status: number;
  delayMs: number;
}

/** Options every provider adapter takes; only `model` is required (each provider has a default base URL). */
export interface ModelAdapterOptions {
  baseUrl?: string;
  model: string;
  apiKey?: string;
  /** Extra request headers (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /** From sending the request to the first body byte; local servers may load the model first. */
  firstByteTimeoutMs?: number;
  /** Longest silence between two body chunks once the reply has started. */
  idleTimeoutMs?: number;
  /** Retries of 429 and 5xx before the first byte. */
  maxRetries?: number;
  /** Base of the exponential backoff (delay = base × 2^(attempt−1)). */
  retryBaseDelayMs?: number;
  /** Longest single wait; a `Retry-After` beyond it fails at once instead of hanging. */
  maxRetryDelayMs?: number;
  /** Upper bound for the reply's tokens where the format wants one (Anthropic requires it). */
  maxTokens?: number;
  onRetry?: (event: ModelRetryEvent) => void;
}

export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 120_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
