/** A refusal with its HTTP status, extra response headers and extra fields of the error body. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;

  constructor(
    readonly status: 400 | 401 | 403 | 404 | 429 | 503,
    message: string,
    extra: { headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.headers = extra.headers ?? {};
    this.body = extra.body ?? {};
  }
}

/**
 * The URL of a request: its target is a path (`/…`, read as it is, so `//x` is a path and not a
 * host) or the absolute form some proxies send; anything else is a 400, never a 500.
 */
export function parseRequestUrl(target: string | undefined): URL {
  const text = target ?? '/';
  try {
    if (text.startsWith('/')) return new URL(`http://localhost${text}`);
    if (/^https?:\/\//i.test(text)) return new URL(text);
  } catch {
    // falls through to the refusal below
  }
  throw new HttpError(400, `the request target ${text.slice(0, 100)} is not a path`);
}
