/** Statuses worth retrying before the first byte: rate limits and server failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status <= 599);
}

/** Reads `Retry-After` (seconds or an HTTP date) as milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait before retry `attempt` (1-based): the server's `Retry-After` when given, else exponential backoff. */
export function retryDelayMs(options: {
  attempt: number;
  baseDelayMs: number;
  retryAfterMs: number | undefined;
}): number {
  if (options.retryAfterMs !== undefined) return options.retryAfterMs;
  return options.baseDelayMs * 2 ** (options.attempt - 1);
}
