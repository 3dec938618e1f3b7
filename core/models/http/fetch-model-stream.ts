import type { ModelRetryEvent } from '../adapter-options.ts';
import { ModelError } from '../model-error.ts';
import { errorBodyMessage } from './error-body-message.ts';
import { fetchFailureError } from './fetch-failure-error.ts';
import { httpStatusError, saysContextExceeded, saysNoToolSupport } from './http-status-error.ts';
import type { ModelRequestContext } from './model-request-context.ts';
import { RequestGuard } from './request-guard.ts';
import { requestBodyOf } from './request-body.ts';
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry-delay.ts';

/** One streamed model request: where, what, and the limits it runs under. */
export interface ModelStreamRequest {
  context: ModelRequestContext;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  signal: AbortSignal;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  onRetry?: (event: ModelRetryEvent) => void;
}

const ERROR_BODY_LIMIT = 64 * 1024;
/** As many redirects as `fetch` itself follows. */
const MAX_REDIRECTS = 20;

/**
 * Sends the request and yields the reply body as text (UTF-8 decoded across chunk borders).
 * Retries 429/5xx before the first byte with backoff (honouring `Retry-After`); maps every
 * failure to a ModelError. Ends normally when the body ends; the caller decides whether the
 * format's terminator came. Stopping the iteration releases the connection and the timers.
 */
export async function* fetchModelStream(request: ModelStreamRequest): AsyncGenerator<string, void, undefined> {
  const guard = new RequestGuard(request.signal);
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    const response = await openWithRetries(request, guard);
    if (!response.body)
      throw fetchFailureError({
        context: request.context,
        guard,
        error: new Error('the reply has no body'),
        phase: 'body',
      });
    reader = response.body.getReader();
    const decoder = new TextDecoder('utf-8');
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        throw fetchFailureError({ context: request.context, guard, error, phase: 'body' });
      }
      if (guard.stopped)
        throw fetchFailureError({ context: request.context, guard, error: guard.signal.reason, phase: 'body' });
      if (result.done) break;
      guard.arm('idle_timeout', request.idleTimeoutMs);
      const text = decoder.decode(result.value, { stream: true });
      if (text !== '') yield text;
    }
    const tail = decoder.decode();
    if (tail !== '') yield tail;
  } finally {
    guard.dispose();
    if (reader) {
      // The body may still be open (the consumer stopped early or failed): release the connection.
      reader.cancel().catch((error: unknown) => void error);
    }
  }
}

async function openWithRetries(request: ModelStreamRequest, guard: RequestGuard): Promise<Response> {
  const { context } = request;
  for (let attempt = 0; ; attempt++) {
    if (guard.stopped) throw fetchFailureError({ context, guard, error: guard.signal.reason, phase: 'connect' });
    guard.arm('first_byte_timeout', request.firstByteTimeoutMs);
    let response: Response;
    try {
      response = await fetchFollowingRedirects(request, guard);
    } catch (error) {
      throw fetchFailureError({ context, guard, error, phase: 'connect' });
    }
    if (response.ok) return response;

    const bodyMessage = await readErrorMessage(response, { context, guard });
    const retryable =
      isRetryableStatus(response.status) &&
      !saysNoToolSupport(bodyMessage) &&
      !saysContextExceeded(response.status, bodyMessage);
    if (!retryable || attempt >= request.maxRetries) {
      throw httpStatusError({ context, status: response.status, bodyMessage, retries: attempt });
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    if (retryAfterMs !== undefined && retryAfterMs > request.maxRetryDelayMs) {
      const waitSeconds = Math.ceil(retryAfterMs / 1000);
      const error = httpStatusError({ context, status: response.status, bodyMessage, retries: attempt });
      throw new ModelError({
        kind: error.kind,
        provider: error.provider,
        status: response.status,
        message: `${error.message} The server asks to wait ${waitSeconds} s before retrying.`,
      });
    }
    const delayMs = Math.min(
      request.maxRetryDelayMs,
      retryDelayMs({ attempt: attempt + 1, baseDelayMs: request.retryBaseDelayMs, retryAfterMs }),
    );
    guard.disarm();
    request.onRetry?.({ attempt: attempt + 1, status: response.status, delayMs });
    try {
      await guard.sleep(delayMs);
    } catch (error) {
      throw fetchFailureError({ context, guard, error, phase: 'connect' });
    }
  }
}

/**
 * One attempt. `fetch` cannot send a streamed body twice, so for one it does not follow redirects
 * itself: a 307 or 308 (same method, same body) to the same origin is followed here, up to
 * MAX_REDIRECTS, with the body made anew. Any other redirect is answered as the status it is; one
 * to another origin is never followed, since the request's headers carry the API key.
 */
async function fetchFollowingRedirects(request: ModelStreamRequest, guard: RequestGuard): Promise<Response> {
  let url = request.context.url;
  for (let hops = 0; ; hops += 1) {
    const init = requestInitOf(request);
    const response = await fetch(url, { ...init, signal: guard.signal });
    const location = response.headers.get('location');
    const followHere = init.redirect === 'manual' && (response.status === 307 || response.status === 308);
    if (!followHere || location === null || hops >= MAX_REDIRECTS) return response;
    const next = new URL(location, url);
    if (next.origin !== new URL(url).origin) return response;
    await response.body?.cancel();
    url = next.href;
  }
}

/** Method, headers and body of one attempt (a streamed body is made anew for each attempt). */
function requestInitOf(request: ModelStreamRequest): RequestInit & { duplex?: 'half' } {
  const method = request.method ?? 'POST';
  if (request.body === undefined) return { method, headers: request.headers };
  const headers: Record<string, string> = { 'content-type': 'application/json', ...request.headers };
  const encoded = requestBodyOf(JSON.stringify(request.body));
  if (!('contentLength' in encoded)) return { method, headers, body: encoded.body };
  // The length is given, so the body is sent with it rather than in chunked encoding.
  headers['content-length'] = String(encoded.contentLength);
  return { method, headers, body: encoded.body, duplex: 'half', redirect: 'manual' };
}

/** Reads at most ERROR_BODY_LIMIT bytes of an error reply, for its message. */
async function readErrorMessage(
  response: Response,
  options: { context: ModelRequestContext; guard: RequestGuard },
): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let text = '';
  try {
    while (text.length < ERROR_BODY_LIMIT) {
      const result = await reader.read();
      if (result.done) break;
      text += decoder.decode(result.value, { stream: true });
    }
  } catch (error) {
    if (options.guard.stopped)
      throw fetchFailureError({ context: options.context, guard: options.guard, error, phase: 'connect' });
    // A status reply whose body broke off: the status alone still says what went wrong.
  } finally {
    reader.cancel().catch((error: unknown) => void error);
  }
  return errorBodyMessage(text);
}
